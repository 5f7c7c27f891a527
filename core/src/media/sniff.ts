import type { MediaKind, SwapType } from '@doppel/contract';

/**
 * The media type of fetched bytes, decided from their signature alone. Content-Type and file
 * names are chosen by whoever hosts the file, so they are never consulted.
 */

export type { MediaKind };

export const IMAGE_MEDIA: readonly MediaKind[] = ['jpeg', 'png', 'webp'];

/** What the target of each swap type may be. Sources are always faces: IMAGE_MEDIA. */
export const TARGET_MEDIA_BY_SWAP_TYPE: Readonly<Record<SwapType, readonly MediaKind[]>> = {
  image: IMAGE_MEDIA,
  multi_face_image: IMAGE_MEDIA,
  gif: ['gif'],
  video: ['mp4', 'mov', 'webm'],
};

export const SOURCE_MEDIA = IMAGE_MEDIA;
export const FACE_DETECT_MEDIA = IMAGE_MEDIA;

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((b, i) => bytes[i] === b);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

// ISO base media brands of ordinary MP4 video; image brands (avif, heic, mif1) are not video.
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso8', 'iso9',
  'mp41', 'mp42', 'avc1', 'av01', 'dash', 'M4V ', 'M4VP', 'mmp4', 'f4v ',
]);
const QUICKTIME_BRAND = 'qt  ';
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

export function sniffMedia(bytes: Uint8Array): MediaKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE) && ascii(bytes, 12, 16) === 'IHDR') return 'png';
  const gif = ascii(bytes, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP' && /^VP8[ LX]$/.test(ascii(bytes, 12, 16))) {
    return 'webp';
  }
  if (ascii(bytes, 4, 8) === 'ftyp') return sniffFtyp(bytes);
  if (startsWith(bytes, EBML_MAGIC)) return ebmlDocType(bytes) === 'webm' ? 'webm' : null;
  return null;
}

/** The first box of an ISO base media file: major brand, minor version, compatible brands. */
function sniffFtyp(bytes: Uint8Array): MediaKind | null {
  const size = Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0);
  if (size < 16 || size % 4 !== 0) return null;
  const major = ascii(bytes, 8, 12);
  if (major === QUICKTIME_BRAND) return 'mov';
  if (MP4_BRANDS.has(major)) return 'mp4';
  if (IMAGE_BRANDS.has(major)) return null;
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= Math.min(size, bytes.length); at += 4) compatible.push(ascii(bytes, at, at + 4));
  if (compatible.some((brand) => IMAGE_BRANDS.has(brand))) return null;
  if (compatible.some((brand) => MP4_BRANDS.has(brand))) return 'mp4';
  return compatible.includes(QUICKTIME_BRAND) ? 'mov' : null;
}

/** An EBML variable-length integer at `at`: its length and value (marker bit removed). */
function readVint(bytes: Uint8Array, at: number, keepMarker: boolean): { length: number; value: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length || length > 8) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return { length, value };
}

const EBML_DOCTYPE_ID = 0x4282;

/** The DocType inside the EBML header ("webm", "matroska"), or null if there is none. */
function ebmlDocType(bytes: Uint8Array): string | null {
  const headerSize = readVint(bytes, EBML_MAGIC.length, false);
  if (!headerSize) return null;
  let at = EBML_MAGIC.length + headerSize.length;
  const end = Math.min(at + headerSize.value, bytes.length);
  while (at < end) {
    const id = readVint(bytes, at, true);
    if (!id || id.length > 4) return null;
    const size = readVint(bytes, at + id.length, false);
    if (!size) return null;
    const dataAt = at + id.length + size.length;
    if (id.value === EBML_DOCTYPE_ID) return ascii(bytes, dataAt, Math.min(dataAt + size.value, end));
    at = dataAt + size.value;
  }
  return null;
}
