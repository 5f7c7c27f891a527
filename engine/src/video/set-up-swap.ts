import { detectFaces } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { IdentityGallery, type GalleryData, type ReferenceFrame } from '../animation/identity-gallery';
import { prepareSources } from '../swap/prepare-sources';
import type { PreparedSource } from '../swap/prepared-source';
import { frameAt, readFrames, type FrameSource } from './read-frames';

/** A person to replace: the face at `faceIndex` (face order; default the largest) on the frame at `frameTimeSeconds`. */
export interface SwapPerson {
  frameTimeSeconds: number;
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

/** The frames the people are named on, each decoded once and detected with descriptors. */
async function referenceFrames({ file, video, people }: SetUpInput, signal: AbortSignal | undefined): Promise<ReferenceFrame[]> {
  const times = [...new Set(people.map((person) => person.frameTimeSeconds))];
  const frames: ReferenceFrame[] = [];
  for (const seconds of times) {
    signal?.throwIfAborted();
    if (!(seconds >= 0 && seconds <= video.durationSeconds)) {
      throw new EngineError('frame_time_out_of_range', `frame time ${seconds} s is outside the video (0-${video.durationSeconds.toFixed(3)} s)`);
    }
    const decoded = readFrames(file, video, { first: frameAt(video, seconds), count: 1 });
    const image = (await decoded.next()).value;
    await decoded.return(undefined);
    if (!image) throw new EngineError('undecodable_input', `cannot decode the video frame at ${seconds} s`);
    const label = `the frame at ${seconds} s`;
    frames.push({
      faces: await detectFaces(image, { descriptors: true }),
      picks: people.flatMap((person, index) =>
        person.frameTimeSeconds === seconds ? [{ person: index, pick: { faceIndex: person.faceIndex, frameLabel: label } }] : [],
      ),
    });
  }
  return frames;
}
