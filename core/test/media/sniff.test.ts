import { describe, expect, it } from 'vitest';
import { FACE_DETECT_MEDIA, SOURCE_MEDIA, TARGET_MEDIA_BY_SWAP_TYPE, sniffMedia } from '../../src/media/sniff';
import {
  makeAvif,
  makeGif,
  makeIsoMedia,
  makeJpeg,
  makeMatroska,
  makeMov,
  makeMp4,
  makePng,
  makeWebm,
  makeWebp,
} from '../support/media-files';

describe('type sniffing', () => {
  it.each([
    ['a JPEG', makeJpeg, 'jpeg'],
    ['a PNG', makePng, 'png'],
    ['a WebP', makeWebp, 'webp'],
    ['an animated GIF', makeGif, 'gif'],
    ['an MP4', makeMp4, 'mp4'],
    ['a QuickTime movie', makeMov, 'mov'],
    ['a WebM', makeWebm, 'webm'],
  ] as const)('recognises %s from its bytes', async (_label, make, kind) => {
    expect(sniffMedia(await make())).toBe(kind);
  });

  it('recognises an MP4 by a compatible brand when the major brand is a vendor one', () => {
    expect(sniffMedia(makeIsoMedia('XAVC', ['XAVC', 'mp42', 'iso2']))).toBe('mp4');
  });

  it.each([
    ['Matroska, which is not WebM', makeMatroska],
    ['AVIF, an image in an ISO box', makeAvif],
    ['an ISO file of unknown brands', () => makeIsoMedia('zzzz', ['yyyy'])],
    ['HTML', () => Buffer.from('<!doctype html><title>404</title>')],
    ['an empty body', () => Buffer.alloc(0)],
    ['a truncated PNG signature', () => Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['a RIFF file that is not WebP', () => Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')],
    ['an EBML header cut short', async () => (await makeWebm()).subarray(0, 12)],
  ])('does not recognise %s', async (_label, make) => {
    expect(sniffMedia(await make())).toBeNull();
  });

  it('accepts still images for image swaps, GIFs for GIF swaps and MP4, MOV and WebM for video swaps', () => {
    expect(TARGET_MEDIA_BY_SWAP_TYPE).toEqual({
      image: ['jpeg', 'png', 'webp'],
      multi_face_image: ['jpeg', 'png', 'webp'],
      gif: ['gif'],
      video: ['mp4', 'mov', 'webm'],
    });
    expect(SOURCE_MEDIA).toEqual(['jpeg', 'png', 'webp']);
    expect(FACE_DETECT_MEDIA).toEqual(['jpeg', 'png', 'webp']);
  });
});
