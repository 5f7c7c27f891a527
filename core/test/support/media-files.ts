import sharp from 'sharp';

/**
 * Small real media files for tests. Images are encoded by sharp; the video containers are the
 * leading boxes/elements a real file starts with, which is all that type sniffing reads.
 */

const canvas = () => sharp({ create: { width: 16, height: 16, channels: 3, background: '#c08040' } });

export const makeJpeg = () => canvas().jpeg().toBuffer();
export const makePng = () => canvas().png().toBuffer();
export const makeWebp = () => canvas().webp().toBuffer();
export const makeAvif = () => canvas().avif().toBuffer();

/** A two-frame animated GIF. */
export function makeGif(): Promise<Buffer> {
  const frames = Buffer.alloc(16 * 32 * 3, 0x80);
  return sharp(frames, { raw: { width: 16, height: 32, channels: 3, pageHeight: 16 } })
    .gif({ delay: [100, 100] })
    .toBuffer();
}

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

/** An ISO base media file start: ftyp with these brands, then an empty moov. */
export function makeIsoMedia(major: string, compatible: readonly string[]): Buffer {
  const brands = Buffer.from([major, '\0\0\x02\0', ...compatible].join(''), 'latin1');
  return Buffer.concat([box('ftyp', brands), box('moov', Buffer.alloc(0))]);
}

export const makeMp4 = () => makeIsoMedia('isom', ['isom', 'iso2', 'avc1', 'mp41']);
export const makeMov = () => makeIsoMedia('qt  ', ['qt  ']);

function ebmlElement(id: number[], payload: Buffer): Buffer {
  // Sizes below 127 fit a one-byte EBML length with its marker bit.
  return Buffer.concat([Buffer.from(id), Buffer.of(0x80 | payload.length), payload]);
}

/** An EBML header with this DocType, followed by the start of a Segment. */
export function makeEbml(docType: string): Buffer {
  const uint = (value: number) => Buffer.of(value);
  const header = Buffer.concat([
    ebmlElement([0x42, 0x86], uint(1)),
    ebmlElement([0x42, 0xf7], uint(1)),
    ebmlElement([0x42, 0xf2], uint(4)),
    ebmlElement([0x42, 0xf3], uint(8)),
    ebmlElement([0x42, 0x82], Buffer.from(docType, 'latin1')),
    ebmlElement([0x42, 0x87], uint(4)),
    ebmlElement([0x42, 0x85], uint(2)),
  ]);
  return Buffer.concat([ebmlElement([0x1a, 0x45, 0xdf, 0xa3], header), Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff])]);
}

export const makeWebm = () => makeEbml('webm');
export const makeMatroska = () => makeEbml('matroska');
