/** One page of a cursor-paginated list, as the API returned it. */
export interface CursorPageBody<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * A page of results. Iterating it with `for await` yields every item of this page and of all
 * the pages after it, fetching each next page only when the previous one is used up.
 */
export class CursorPage<T> implements AsyncIterable<T> {
  readonly data: T[];
  /** Pass as `cursor` to fetch the next page; null on the last page. */
  readonly next_cursor: string | null;
  readonly #fetchPage: (cursor: string) => Promise<CursorPage<T>>;

  constructor(body: CursorPageBody<T>, fetchPage: (cursor: string) => Promise<CursorPage<T>>) {
    this.data = body.data;
    this.next_cursor = body.next_cursor;
    this.#fetchPage = fetchPage;
  }

  hasNextPage(): boolean {
    return this.next_cursor !== null;
  }

  /** The following page; on the last page this rejects, so check `hasNextPage()` first. */
  getNextPage(): Promise<CursorPage<T>> {
    if (this.next_cursor === null) return Promise.reject(new RangeError('This is the last page'));
    return this.#fetchPage(this.next_cursor);
  }

  /** This page and every following one. */
  async *iterPages(): AsyncGenerator<CursorPage<T>> {
    yield this;
    let next = this.hasNextPage() ? await this.getNextPage() : null;
    while (next) {
      yield next;
      next = next.hasNextPage() ? await next.getNextPage() : null;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What `list()` returns: await it for the first page, or `for await` it directly for every item.
 * The request starts on first use, so an unused list never leaves a rejected promise behind.
 */
export class PagePromise<T> implements PromiseLike<CursorPage<T>>, AsyncIterable<T> {
  readonly #load: () => Promise<CursorPage<T>>;
  #page: Promise<CursorPage<T>> | undefined;

  constructor(load: () => Promise<CursorPage<T>>) {
    this.#load = load;
  }

  #first(): Promise<CursorPage<T>> {
    this.#page ??= this.#load();
    return this.#page;
  }

  then<R1 = CursorPage<T>, R2 = never>(
    onFulfilled?: ((page: CursorPage<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#first().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#first();
  }
}
