import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { meshTurn } from '../../src/faces/mesh-mirror';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { prepareSource } from '../../src/swap/prepared-source';
import { paintTriangles } from '../../src/swap/rasterise-mesh';
import { swapFaceInto } from '../../src/swap/swap-face';
import { toBox } from '../../src/swap/warp-face';
import { demoPhoto } from '../faces/fixtures';
import { handAcross, handCutout } from '../quality/hand';
import { keptShare } from '../quality/image-region';
import { glassesOn } from '../quality/occluders';

/** A strand of dark hair's colour. */
const HAIR = [28, 22, 20] as const;

interface Photo {
  image: RgbImage;
  face: Face;
}

async function photo(n: number, pick: (faces: Face[]) => Face = (faces) => faces[largestIndex(faces.map((face) => face.box))]!, width = 960): Promise<Photo> {
  const { data, info } = await sharp(await demoPhoto(n)).resize({ width }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { rgb: new Uint8Array(data), width: info.width, height: info.height };
  return { image, face: pick(await detectFaces(image)) };
}

/** A point of the mesh on the cheek, below the eye and beside the nose (MediaPipe's point 205). */
const CHEEK = 205;
/** Above the brow on the face's right, one ring inside the outline (MediaPipe's point 68). */
const ABOVE_BROW = 68;
/** Between the brows (MediaPipe's point 9). */
const BETWEEN_BROWS = 9;
/** The brow on the face's left: its inner and outer ends and its top (MediaPipe's points 336, 300, 334). */
const [BROW_INNER_END, BROW_OUTER_END, BROW_TOP] = [336, 300, 334];
/** The eye on the face's left: its outer corner (MediaPipe's point 263); the outline beside it (point 356). */
const [EYE_OUTER_CORNER, OUTLINE_BY_EYE] = [263, 356];

/**
 * A strand of hair as it falls across a face: a band from outside the face's box, over its outline,
 * to just past the cheek point. Returns the band's pixels and, to judge the result by, those of
 * them on the mesh's plain-skin triangles (eyes, brows and lips are drawn whatever their colour),
 * as indices into the image.
 */
function strandAcross(face: Face, imageWidth: number, shift = 0): { band: number[]; onSkin: number[] } {
  const { box } = face;
  const skin = paintTriangles(toBox(face.mesh, box), topology.triangles, topology.skin, box.width, box.height);
  const [cx, cy] = [face.mesh[CHEEK * 2]! - box.x, face.mesh[CHEEK * 2 + 1]! - box.y + shift * box.height];
  const band: number[] = [];
  const onSkin: number[] = [];
  for (let y = Math.round(cy - 0.03 * box.height); y < cy + 0.03 * box.height; y++) {
    for (let x = -Math.round(0.1 * box.width); x < cx + 0.1 * box.width; x++) {
      const p = (box.y + y) * imageWidth + box.x + x;
      band.push(p);
      if (x >= 0 && skin[y * box.width + x]) onSkin.push(p);
    }
  }
  return { band, onSkin };
}

/** Those of `pixels` (indices into an image `imageWidth` wide) inside the face's box. */
function inBox(pixels: number[], face: Face, imageWidth: number): number[] {
  const { x, y, width, height } = face.box;
  return pixels.filter((p) => {
    const [px, py] = [p % imageWidth, Math.floor(p / imageWidth)];
    return px >= x && px < x + width && py >= y && py < y + height;
  });
}

function painted(image: RgbImage, pixels: number[]): RgbImage {
  const rgb = Uint8Array.from(image.rgb);
  for (const p of pixels) rgb.set(HAIR, p * 3);
  return { ...image, rgb };
}

/** The target with hair painted over `band`, then swapped; and the painted target before the swap. */
function swappedWith(band: number[]): { frame: RgbImage; before: Uint8Array } {
  const frame = painted(target.image, band);
  const before = Uint8Array.from(frame.rgb);
  swapFaceInto(frame, target.face, prepareSource(source.image, source.face, topology), { topology });
  return { frame, before };
}

/** Share of a glasses frame drawn across `target`'s face kept in front once the source is swapped in, as an image swap does. */
function glassesKeptOn(target: Photo): number {
  const { frame: glasses } = glassesOn(target.face, target.image);
  const image = painted(target.image, glasses);
  return keptShare(swappedAsImage({ image, face: target.face }), image.rgb, inBox(glasses, target.face, target.image.width));
}

/** The share of the quality report's hand (photo 2's fingers, `handAcross`) laid across `target`'s face that stays in front of the new face. */
async function handKeptOn(target: Photo): Promise<number> {
  const { image, onFace } = handAcross(target.image, target.face.box, handCutout((await photo(2, undefined, 1920)).image));
  return keptShare(swappedAsImage({ image, face: target.face }), image.rgb, onFace);
}

const brightness = (rgb: Uint8Array, p: number) => (rgb[p * 3]! + rgb[p * 3 + 1]! + rgb[p * 3 + 2]!) / 3;

/** The pixels of [x0, x1) × [y0, y1) darker than 0.6 of the brightness at the face's cheek point. */
function darkPixels({ image, face }: Photo, [x0, x1]: [number, number], [y0, y1]: [number, number]): number[] {
  const cheek = brightness(image.rgb, Math.round(face.mesh[CHEEK * 2 + 1]!) * image.width + Math.round(face.mesh[CHEEK * 2]!));
  const dark: number[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if (brightness(image.rgb, y * image.width + x) < 0.6 * cheek) dark.push(y * image.width + x);
  }
  return dark;
}

/** `photo` with the test's source swapped in as an image swap does, its frame following thin lines at the face's own resolution. */
function swappedAsImage({ image, face }: Photo): Uint8Array {
  const frame = { ...image, rgb: Uint8Array.from(image.rgb) };
  swapFaceInto(frame, face, prepareSource(source.image, source.face, topology), { topology, fineOccluders: true });
  return frame.rgb;
}

let topology: MeshTopology;
let target: Photo;
let source: Photo;

beforeAll(async () => {
  topology = await meshTopology();
  [target, source] = [await photo(1), await photo(5)];
});

describe('what lies across a face', () => {
  it("keeps a strand of hair across the target's face in front of the new face", () => {
    const { band, onSkin: strand } = strandAcross(target.face, target.image.width);
    expect(strand.length).toBeGreaterThan(100);
    const { frame, before } = swappedWith(band);

    expect(keptShare(frame.rgb, before, strand)).toBeGreaterThan(0.9);
    // The face around the strand did take the new face.
    const above = strandAcross(target.face, target.image.width, -0.1).onSkin;
    const changed = above.filter((p) => [0, 1, 2].some((k) => Math.abs(frame.rgb[p * 3 + k]! - before[p * 3 + k]!) > 12));
    expect(changed.length / above.length).toBeGreaterThan(0.5);
  });

  it("keeps a fringe of hair falling over the target's brow in front of the new face", () => {
    const { box, mesh } = target.face;
    const atOutline = paintTriangles(toBox(mesh, box), topology.triangles, topology.outlineFeatures, box.width, box.height);
    // A band from outside the box, level with the top of the brow, to between the brows.
    const by = mesh[ABOVE_BROW * 2 + 1]! - box.y;
    const band: number[] = [];
    const overBrow: number[] = [];
    for (let y = Math.round(by - 0.04 * box.height); y < by + 0.04 * box.height; y++) {
      for (let x = -Math.round(0.1 * box.width); x < mesh[BETWEEN_BROWS * 2]! - box.x; x++) {
        const p = (box.y + y) * target.image.width + box.x + x;
        band.push(p);
        if (x >= 0 && atOutline[y * box.width + x]) overBrow.push(p);
      }
    }
    expect(overBrow.length).toBeGreaterThan(50);
    const { frame, before } = swappedWith(band);

    expect(keptShare(frame.rgb, before, overBrow)).toBeGreaterThan(0.9);
  });

  it("keeps a glasses frame across the target's face in front of the new face, its rims round the eyes too", () => {
    const { frame: glasses, eyes } = glassesOn(target.face, target.image);
    const onFace = inBox(glasses, target.face, target.image.width);
    expect(onFace.length).toBeGreaterThan(300);
    const { frame, before } = swappedWith(glasses);

    // Before thin lines were followed through the eyes' zones, 6 % of the frame stayed (94 % now).
    expect(keptShare(frame.rgb, before, onFace)).toBeGreaterThan(0.85);
    // Behind the lenses, the eyes did take the new face.
    expect(keptShare(frame.rgb, before, eyes)).toBeLessThan(0.5);
  });

  it('keeps a glasses frame in front on a face over 160 px too, as image swaps draw it', async () => {
    // Photo 6 as shipped (1920 px): its largest face's skin map is worked out on a coarser grid.
    // Followed on the grid alone, 70 % of it stayed (98 % now).
    expect(glassesKeptOn(await photo(6, undefined, 1920))).toBeGreaterThan(0.85);
  });

  it('keeps a glasses frame in front on a face lit brightly on one side and shaded on the other', async () => {
    // Photo 4's face 3: her skin's lightness spreads so widely that the black frame was within its
    // reach. Told from the skin by that spread alone, 3 % of it stayed.
    expect(glassesKeptOn(await photo(4, (faces) => faces.find((face) => face.index === 3)!, 1920))).toBeGreaterThan(0.85);
  });

  it("keeps another person's hand laid across the target's face in front of the new face", async () => {
    // Photo 5's face 0 with photo 2's fingers across her cheek and her mouth's corner (the quality
    // report's hand): the hand's pixels among her learnt skin widened its reach until the whole
    // hand passed for skin, and 18 % of it stayed in front; told apart from her skin but judged
    // only where her skin is, 81 %, the fingers over her lips drawn over (98 % now).
    expect(await handKeptOn(await photo(5, (faces) => faces.find((face) => face.index === 0)!, 1920))).toBeGreaterThan(0.9);
  });

  it("keeps another person's hand in front where it is greyer and lighter than a narrowly spread skin and comes in across the outline", async () => {
    // Photo 1's face 0 with the same fingers: the hand lies 1.6 spreads of her skin's lightness
    // above it, and 22 % of it stayed in front while only colours at about the skin's lightness
    // were looked for.
    expect(await handKeptOn(await photo(1, (faces) => faces.find((face) => face.index === 0)!, 1920))).toBeGreaterThan(0.85);
  });

  it("keeps a hand's fingers in front where the face's light draws them towards its skin, joined to the hand's clearly foreign pixels", async () => {
    // Photo 6's face 1, lit from the window beside her: the top of the hand and the fingers' sides
    // lie partway between her skin and the hand's colour, and only part of them stayed in front
    // (60 % of the hand, 79 % joined to its clear pixels), the new face's eye showing through the
    // back of the hand.
    expect(await handKeptOn(await photo(6, (faces) => faces.find((face) => face.index === 1)!, 1920))).toBeGreaterThan(0.75);
  });

  it("keeps a black glasses frame's rims in front where they cross the brows", async () => {
    // Photo 6's face 2: the frame's upper rims run along her brows. Not followed into the brows, 81 % of it stayed.
    expect(glassesKeptOn(await photo(6, (faces) => faces.find((face) => face.index === 2)!, 1920))).toBeGreaterThan(0.95);
  });

  it("keeps a black glasses frame's rims in front where they cross the eyes' contours on a face near profile", async () => {
    // Photo 5's face 1: the near lens's lower rim runs along her lower lid. Not carried into the
    // eyes' contours, 85 % of it stayed (86 % now; the rest is the far lens, half hidden by her nose).
    expect(glassesKeptOn(await photo(5, (faces) => faces.find((face) => face.index === 1)!, 1920))).toBeGreaterThan(0.855);
  });

  it('draws the new face over a thin brow that runs into the hair, and does not keep it in front as it keeps a frame', async () => {
    // Photo 6's face 1: her thin arched brow runs on into her hair at the temple, a thin dark line
    // as long as a frame's rim; kept in front, 33 % of its dark pixels stayed (3 % now).
    const arched = await photo(6, (faces) => faces.find((face) => face.index === 1)!, 1920);
    const { mesh, box } = arched.face;
    const [inner, outer] = [BROW_INNER_END, BROW_OUTER_END].map((i) => mesh[i * 2]!) as [number, number];
    const [top, bottom] = [BROW_TOP, BROW_INNER_END].map((i) => mesh[i * 2 + 1]!) as [number, number];
    // The brow's dark pixels, its outer quarter (in the hair) left aside.
    const cut = inner + 0.75 * (outer - inner);
    const brow = darkPixels(arched, [Math.round(Math.min(inner, cut)), Math.floor(Math.max(inner, cut)) + 1], [Math.round(top - 0.08 * box.height), Math.floor(bottom + 0.04 * box.height) + 1]);
    expect(brow.length).toBeGreaterThan(200);

    expect(keptShare(swappedAsImage(arched), arched.image.rgb, brow)).toBeLessThan(0.1);
  });

  it("draws the new face over the short strands of hair at a large face's temple, which kept alone in front showed as a dark streak", async () => {
    // Photo 1's face 0 at 1920 px: her fair hair at the temple takes the new face, and its darker
    // strands, followed as thin lines at the face's own resolution, stayed in front as a
    // hard-edged streak: 43 % of the temple's dark pixels were kept (7 % now).
    const clown = await photo(1, (faces) => faces.find((face) => face.index === 0)!, 1920);
    const { mesh, box } = clown.face;
    const [eyeX, eyeY] = [mesh[EYE_OUTER_CORNER * 2]!, mesh[EYE_OUTER_CORNER * 2 + 1]!];
    const browY = mesh[BROW_OUTER_END * 2 + 1]!;
    const outlineX = Math.max(mesh[OUTLINE_BY_EYE * 2]!, box.x + box.width);
    const strands = darkPixels(clown, [Math.round(eyeX), outlineX], [Math.round(browY - 0.1 * box.height), eyeY + 0.05 * box.height]);
    expect(strands.length).toBeGreaterThan(300);

    expect(keptShare(swappedAsImage(clown), clown.image.rgb, strands)).toBeLessThan(0.2);
  });

  it("does not carry a strand of hair across the source's face into the target", () => {
    const withStrand = painted(source.image, strandAcross(source.face, source.image.width).band);
    const clean = { ...target.image, rgb: Uint8Array.from(target.image.rgb) };
    const fromStrand = { ...target.image, rgb: Uint8Array.from(target.image.rgb) };
    swapFaceInto(clean, target.face, prepareSource(source.image, source.face, topology), { topology });
    swapFaceInto(fromStrand, target.face, prepareSource(withStrand, source.face, topology), { topology });

    const { x, y, width, height } = target.face.box;
    let darkened = 0;
    for (let row = y; row < y + height; row++) {
      for (let col = x; col < x + width; col++) {
        const p = row * target.image.width + col;
        if (brightness(clean.rgb, p) - brightness(fromStrand.rgb, p) > 25) darkened++;
      }
    }
    // Drawn as it is, the strand would darken about 0.6 % of the target's box (78 pixels).
    expect(darkened / (width * height)).toBeLessThan(0.003);
  });

  it("tones the hair over a source's brow end without the blocks of its JPEG", async () => {
    // Photo 5's face 4's brown hair lies over her brow's end, and her skin map keeps her photo's
    // 8 px blocks there; the tone step deepens a feature's dark pixels as far as that map says
    // they are drawn, and the hair came out on photo 6's face 3's temple as a dark patch with
    // stepped edges: 1.5 % of neighbouring pixels there stepped by more than 10 levels (0.4 % now).
    const pick = (index: number) => (faces: Face[]) => faces.find((face) => face.index === index)!;
    const [pale, veiled] = [await photo(6, pick(3), 1920), await photo(5, pick(4), 1920)];
    const frame = { ...pale.image, rgb: Uint8Array.from(pale.image.rgb) };
    swapFaceInto(frame, pale.face, prepareSource(veiled.image, veiled.face, topology), { topology, fineOccluders: true });
    const { mesh, box } = pale.face;
    const [x0, x1] = [Math.round(mesh[EYE_OUTER_CORNER * 2]!), Math.round(mesh[OUTLINE_BY_EYE * 2]!)];
    const [y0, y1] = [Math.round(mesh[BROW_TOP * 2 + 1]! - 0.05 * box.height), Math.round(mesh[EYE_OUTER_CORNER * 2 + 1]! + 0.05 * box.height)];
    let [steps, pairs] = [0, 0];
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const p = y * frame.width + x;
        for (const q of [p + 1, p + frame.width]) [steps, pairs] = [steps + (Math.abs(brightness(frame.rgb, p) - brightness(frame.rgb, q)) > 10 ? 1 : 0), pairs + 1];
      }
    }

    expect(pairs).toBeGreaterThan(3000);
    expect(steps / pairs).toBeLessThan(0.008);
  });

  it("leaves out the wall where a profile source's mesh lays its far eye, and keeps the near one", async () => {
    const turn = (face: Face) => meshTurn(face.mesh, topology.triangles, topology.sides);
    // Photo 2's face 0, seen near profile (turn about 0.6) against a pale wall.
    const profile = await photo(2, (faces) => faces.reduce((a, b) => (Math.abs(turn(b)) > Math.abs(turn(a)) ? b : a)));
    const { face: texture } = prepareSource(profile.image, profile.face, topology);
    const far = turn(profile.face) > 0 ? -1 : 1;
    // Mean likeness over one half's eye and lip triangles (the brows' zone left aside).
    const likenessOver = (side: number) => {
      const chosen = topology.features.map((f, t) => (f && topology.sides[t] === side && !topology.brows[t] ? 1 : 0));
      const mask = paintTriangles(texture.mesh, topology.triangles, chosen, texture.width, texture.height);
      let [sum, count] = [0, 0];
      for (let p = 0; p < mask.length; p++) if (mask[p]) [sum, count] = [sum + texture.likeness[p]! / 255, count + 1];
      return sum / count;
    };

    expect(Math.abs(turn(profile.face))).toBeGreaterThan(0.5);
    // Judged only where the wall comes in, about two thirds of the far half was kept (0.64).
    expect(likenessOver(far)).toBeLessThan(0.2);
    expect(likenessOver(-far)).toBeGreaterThan(0.8);
  });
});
