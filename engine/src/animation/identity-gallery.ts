import type { Face } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { faceDistance } from '../faces/face-distance';
import { largestIndex } from '../faces/face-order';

/**
 * Above this descriptor distance a face is not taken for a followed person on identity alone.
 * Measured on the demo photos re-framed at 640x360 (faces of 65-150 px): one person across zooms
 * of 1-1.6x stayed within 2.4-6.1, two different people were 4.8 and more apart. The ranges
 * overlap, which is why identity is decided by the nearest reference face first (below) and this
 * bound only keeps out people who were on no reference frame.
 */
export const MAX_IDENTITY_DISTANCE = 7;

/** Unnamed faces this close to a named one are taken to be that person seen on another reference frame. */
const SAME_PERSON_DISTANCE = 4;

/** Which face to follow: the face at `faceIndex` (face order; default the largest) on a reference frame. */
export interface ReferencePick {
  faceIndex?: number;
  /** Describes the reference frame in error messages, e.g. "the frame at 1.5 s". */
  frameLabel: string;
}

/** A reference frame's faces, detected with descriptors, and the people picked on it. */
export interface ReferenceFrame {
  faces: Face[];
  /** Person number (position in the list of people) for each pick made on this frame. */
  picks: { person: number; pick: ReferencePick }[];
}

/** A gallery as plain data, to pass to another thread (structured clone copies the descriptors). */
export interface GalleryData {
  people: number;
  entries: { descriptor: Float32Array; person: number | null }[];
  /** Whether some person was picked on a face half hidden from the detector (`Face.hidden`). */
  pickedHidden: boolean;
}

export interface Identification {
  /** The person whose reference face is nearest, or null when the nearest is someone not followed. */
  person: number | null;
  distance: number;
}

/**
 * The descriptors of every face on the reference frames: those of the followed people, and those
 * of everyone else. A face seen later is identified as the person with the nearest reference
 * face, so a second person, being nearer their own reference face, is never taken for the first.
 */
export class IdentityGallery {
  private constructor(
    readonly people: number,
    private readonly entries: { descriptor: Float32Array; person: number | null }[],
    /** Some person was picked on a face half hidden (a hand across it): they are looked for so as they are followed. */
    readonly pickedHidden: boolean,
  ) {}

  static fromReferences(frames: ReferenceFrame[]): IdentityGallery {
    const named: { descriptor: Float32Array; person: number }[] = [];
    const unnamed: Face[] = [];
    let people = 0;
    let pickedHidden = false;
    for (const frame of frames) {
      const chosen = new Set<Face>();
      for (const { person, pick } of frame.picks) {
        const face = pickReferenceFace(frame.faces, pick);
        chosen.add(face);
        pickedHidden ||= face.hidden === true;
        named.push({ descriptor: describedOf(face), person });
        people = Math.max(people, person + 1);
      }
      unnamed.push(...frame.faces.filter((face) => !chosen.has(face)));
    }
    const others = unnamed
      .map(describedOf)
      .filter((descriptor) => named.every((entry) => faceDistance(entry.descriptor, descriptor) > SAME_PERSON_DISTANCE))
      .map((descriptor) => ({ descriptor, person: null }));
    return new IdentityGallery(people, [...named, ...others], pickedHidden);
  }

  static fromData(data: GalleryData): IdentityGallery {
    return new IdentityGallery(data.people, data.entries, data.pickedHidden);
  }

  toData(): GalleryData {
    return { people: this.people, entries: this.entries, pickedHidden: this.pickedHidden };
  }

  identify(descriptor: Float32Array): Identification {
    let best: Identification = { person: null, distance: Infinity };
    for (const entry of this.entries) {
      const distance = faceDistance(entry.descriptor, descriptor);
      if (distance < best.distance) best = { person: entry.person, distance };
    }
    return best;
  }
}

function describedOf(face: Face): Float32Array {
  if (!face.descriptor) throw new Error('reference faces must be detected with descriptors');
  return face.descriptor;
}

function pickReferenceFace(faces: Face[], pick: ReferencePick): Face {
  if (faces.length === 0) throw new EngineError('no_face_in_target', `no face found on ${pick.frameLabel}`);
  const face = faces[pick.faceIndex ?? largestIndex(faces.map((f) => f.box))];
  if (!face) {
    const found = faces.length === 1 ? '1 face (0)' : `${faces.length} faces (0-${faces.length - 1})`;
    throw new EngineError('face_index_out_of_range', `face index ${pick.faceIndex} is out of range: ${pick.frameLabel} has ${found}`);
  }
  return face;
}
