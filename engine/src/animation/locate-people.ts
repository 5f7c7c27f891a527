import type { RgbImage } from '../faces/decode-image';
import type { Face } from '../faces/detect-faces';
import { detectFollowing } from './detect-following';
import { isNear, nearestFace } from './face-motion';
import { MAX_IDENTITY_DISTANCE, type IdentityGallery } from './identity-gallery';

/** Where everyone is on one keyframe. */
export interface Sighting {
  /** Per followed person, their face, or null when they are not on the frame. */
  people: (Face | null)[];
  /**
   * Faces known not to be a followed person: those on this frame, and for a few keyframes those
   * no longer found (`unseen` keyframes ago), so a face flickering in and out of detection (at the
   * frame's edge, turning away) is not taken for someone new each time it comes back.
   */
  others: { face: Face; unseen: number }[];
}

/** Keyframes an unmatched other face is remembered for. */
const REMEMBER_OTHERS = 8;

/**
 * Finds the followed people on a keyframe, given where they and everyone else were on the
 * previous one (null on the first keyframe).
 *
 * Position first: when every face on the frame is within reach of exactly one face of the
 * previous keyframe, each continues as who it was, and no descriptor is computed (they cost about
 * 100 ms per face). Identity otherwise: on the first keyframe, every `verifyEvery` keyframes, and
 * whenever a face appears that was not there before or two faces are within reach of one person.
 * Then every face is given to the person with the nearest reference face (see IdentityGallery);
 * a face within reach of a person's last sighting keeps following that person unless its
 * descriptor is nearer someone else's reference, and a face out of reach must also be within
 * MAX_IDENTITY_DISTANCE. `seen`: on the first keyframe, its faces found beforehand
 * (`facesOnFirstFrame`).
 */
export class PeopleLocator {
  private keyframes = 0;

  constructor(
    private readonly gallery: IdentityGallery,
    private readonly verifyEvery: number,
  ) {}

  async locate(image: RgbImage, previous: Sighting | null, seen?: Face[]): Promise<Sighting> {
    const verify = this.keyframes++ % this.verifyEvery === 0;
    if (previous && !verify) {
      const byPosition = followByPosition(previous, await detectFollowing(image, previous.people, false, this.gallery.pickedHidden));
      if (byPosition) return byPosition;
    }
    // On the first keyframe no one has been seen yet.
    const followed = previous?.people ?? Array.from({ length: this.gallery.people }, () => null);
    return this.identify(await detectFollowing(image, followed, true, this.gallery.pickedHidden, previous ? undefined : seen), previous);
  }

  private identify(faces: Face[], previous: Sighting | null): Sighting {
    const ids = new Map(faces.map((face) => [face, this.gallery.identify(face.descriptor!)]));
    const taken = new Set<Face>();
    const people = Array.from({ length: this.gallery.people }, (_, person) => {
      const last = previous?.people[person] ?? null;
      const candidates = faces.filter((face) => {
        const id = ids.get(face)!;
        return !taken.has(face) && id.person === person && (id.distance <= MAX_IDENTITY_DISTANCE || (last !== null && isNear(last, face)));
      });
      const chosen = (last && nearestFace(last, candidates)) ?? candidates.sort((a, b) => ids.get(a)!.distance - ids.get(b)!.distance)[0] ?? null;
      if (chosen) taken.add(chosen);
      return chosen;
    });
    return { people, others: [...faces.filter((face) => !taken.has(face)).map((face) => ({ face, unseen: 0 })), ...missing(previous, faces)] };
  }
}

/**
 * Everyone on `faces` matched to the previous keyframe by position alone, or null when that is
 * not conclusive: a face out of reach of every previous face (someone new, or someone who moved
 * far), or a followed person with two faces within reach.
 */
export function followByPosition(previous: Sighting, faces: Face[]): Sighting | null {
  const taken = new Set<Face>();
  const people: (Face | null)[] = [];
  for (const last of previous.people) {
    if (last && faces.filter((face) => isNear(last, face)).length > 1) return null;
    const face = last && nearestFace(last, faces, taken);
    if (face) taken.add(face);
    people.push(face);
  }
  for (const other of previous.others) {
    const face = nearestFace(other.face, faces, taken);
    if (face) taken.add(face);
  }
  if (taken.size < faces.length) return null;
  return { people, others: [...faces.filter((face) => !people.includes(face)).map((face) => ({ face, unseen: 0 })), ...missing(previous, faces)] };
}

/** The previous keyframe's other faces not found on this one, aged by one keyframe. */
function missing(previous: Sighting | null, faces: Face[]): Sighting['others'] {
  return (previous?.others ?? [])
    .filter((other) => other.unseen + 1 < REMEMBER_OTHERS && nearestFace(other.face, faces) === null)
    .map((other) => ({ face: other.face, unseen: other.unseen + 1 }));
}
