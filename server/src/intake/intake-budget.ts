/**
 * Bytes of fetched media that creates in this process hold in memory at once. A create buffers
 * its inputs (up to the byte caps) until it has scanned, measured and stored them; without a
 * bound, a burst of creates from many keys could hold more than the process has. Bytes are
 * admitted as they arrive, so ordinary creates share the budget by what they really fetch.
 */
export class IntakeBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes admitted and not yet released, for metrics and tests. */
  get inUse(): number {
    return this.used;
  }

  /**
   * A create's share: admits its chunks while the budget lasts and gives them all back at once.
   * A released share admits nothing more: a fetch still running after its create failed (the
   * other input's) is cut off instead of holding bytes nobody will give back.
   */
  open(): IntakeShare {
    let held = 0;
    let released = false;
    return {
      admit: (bytes) => {
        if (released || this.used + bytes > this.limitBytes) return false;
        this.used += bytes;
        held += bytes;
        return true;
      },
      release: () => {
        released = true;
        this.used -= held;
        held = 0;
      },
    };
  }
}

export interface IntakeShare {
  /** False, admitting nothing, when `bytes` more would go past the process's budget. */
  admit(bytes: number): boolean;
  /** Returns every byte this share admitted and closes it; safe to call more than once. */
  release(): void;
}
