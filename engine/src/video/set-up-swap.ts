import { firstFrameWithFaces } from '../animation/first-face';
import type { RgbImage } from '../faces/decode-image';
import { detectFaces, type Face } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { IdentityGallery, type GalleryData, type ReferenceFrame } from '../animation/identity-gallery';
import { prepareSources } from '../swap/prepare-sources';
import type { PreparedSource } from '../swap/prepared-source';
import { frameAt, readFrame, readFrames, type FrameSource } from './read-frames';

/**
 * A person to replace: the face at `faceIndex` (face order; default the largest) on the frame at
 * `frameTimeSeconds`, or, without it, on the first frame with a face (looked for every
 * `SCAN_STEP_SECONDS`).
 */
export interface SwapPerson {
  frameTimeSeconds?: number;
  faceIndex?: number;
  /** Encoded photo whose largest face replaces that person throughout the video. */
  source: Buffer;
  /** The source already prepared (from the pool's cache): neither decoded nor analysed again. */
  prepared?: PreparedSource;
}

export interface SetUpInput {
  file: string;
  video: FrameSource;
  people: SwapPerson[];
}

/** What every chunk of a video swap starts from. */
export interface VideoSwapSetUp {
  /** Every face on the reference frames, with who is followed (see `IdentityGallery`). */
  gallery: GalleryData;
  /** Per person, their prepared source. */
  sources: PreparedSource[];
}

/**
 * The work done once per video, before any frame is swapped: the reference frames decoded and
 * described, and the sources prepared. Every refusal about the people (a time outside the video,
 * a face index out of range, no face in a source) comes from here, before any chunk runs.
 * `signal` stops it between frames.
 */
export async function setUpVideoSwap(input: SetUpInput, signal?: AbortSignal): Promise<VideoSwapSetUp> {
  const gallery = IdentityGallery.fromReferences(await referenceFrames(input, signal));
  signal?.throwIfAborted();
  // Identical source photos are prepared once, however many faces they go to.
  const sources = await Promise.all(prepareSources(input.people));
  return { gallery: gallery.toData(), sources };
}

/**
 * Without a named frame, the first frame with a face is looked for this often: a face on screen for
 * less is missed, and a video with no face at all is refused after a detection every half second
 * (a two-minute one after 240).
 */
const SCAN_STEP_SECONDS = 0.5;

/** The frames the people are named on, each decoded once and detected with descriptors. */
async function referenceFrames({ file, video, people }: SetUpInput, signal: AbortSignal | undefined): Promise<ReferenceFrame[]> {
  const times = [...new Set(people.map((person) => person.frameTimeSeconds))];
  const frames: ReferenceFrame[] = [];
  for (const seconds of times) {
    signal?.throwIfAborted();
    // Faces half hidden by a hand count on the first frame with a face unless a face index is named there.
    const hidden = people.every((person) => person.frameTimeSeconds !== seconds || person.faceIndex === undefined);
    const { faces, label } = seconds === undefined ? await firstWithFaces(file, video, hidden, signal) : await namedFrame(file, video, seconds);
    frames.push({
      faces,
      picks: people.flatMap((person, index) =>
        person.frameTimeSeconds === seconds ? [{ person: index, pick: { faceIndex: person.faceIndex, frameLabel: label } }] : [],
      ),
    });
  }
  return frames;
}

async function namedFrame(file: string, video: FrameSource, seconds: number): Promise<{ faces: Face[]; label: string }> {
  if (!(seconds >= 0 && seconds <= video.durationSeconds)) {
    throw new EngineError('frame_time_out_of_range', `frame time ${seconds} s is outside the video (0-${video.durationSeconds.toFixed(3)} s)`);
  }
  const image = await readFrame(file, video, frameAt(video, seconds));
  if (!image) throw new EngineError('undecodable_input', `cannot decode the video frame at ${seconds} s`);
  return { faces: await detectFaces(image, { descriptors: true }), label: `the frame at ${seconds} s` };
}

async function firstWithFaces(file: string, video: FrameSource, hidden: boolean, signal: AbortSignal | undefined): Promise<{ faces: Face[]; label: string }> {
  const step = Math.max(1, Math.round(SCAN_STEP_SECONDS * video.fps));
  const found = await firstFrameWithFaces(everyStep(readFrames(file, video), step), { hidden, signal });
  if (!found) return { faces: [], label: `any frame of the video (looked at every ${SCAN_STEP_SECONDS} s)` };
  return { faces: found.faces, label: `the frame at ${Number(((found.looked * step) / video.fps).toFixed(3))} s (the first with a face)` };
}

async function* everyStep(frames: AsyncIterable<RgbImage>, step: number) {
  let index = 0;
  for await (const image of frames) if (index++ % step === 0) yield image;
}
