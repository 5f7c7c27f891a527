import type { CreateFaceDetectBodySchema, FaceDetectCreatedSchema, FaceDetectTask } from '@doppel/contract';
import type { z } from 'zod';
import { pollUntilTerminal, type WaitOptions } from '../core/polling';
import type { RequestOptions, ResourceContext } from '../internal/contract-client';
import { expectStatus } from '../internal/response';
import { assertTaskId } from '../internal/task-id';

export type FaceDetectCreateParams = z.input<typeof CreateFaceDetectBodySchema>;
export type FaceDetectCreated = z.infer<typeof FaceDetectCreatedSchema>;
export type FaceDetectWaitOptions = WaitOptions<FaceDetectTask>;

const isTerminal = (task: FaceDetectTask) => task.status === 'done' || task.status === 'failed';

export class FaceDetect {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Queues a face detection; poll it with `retrieve` or `waitFor`. Costs 0 credits, so a retried
   * create that queued twice wastes nothing (the endpoint takes no idempotency key).
   */
  async create(params: FaceDetectCreateParams, options?: RequestOptions): Promise<FaceDetectCreated> {
    const response = await this.#context.api.createFaceDetect({ body: params, requestOptions: options });
    return expectStatus(response, 202);
  }

  async retrieve(id: string, options?: RequestOptions): Promise<FaceDetectTask> {
    const response = await this.#context.api.getFaceDetect({
      params: { taskId: assertTaskId(id) },
      requestOptions: options,
    });
    return expectStatus(response, 200);
  }

  /** Polls until the detection is `done` or `failed` and returns it; it does not throw on `failed`. */
  waitFor(id: string, options: FaceDetectWaitOptions = {}): Promise<FaceDetectTask> {
    return pollUntilTerminal(
      { id, fetch: (signal) => this.retrieve(id, { signal }), isTerminal },
      options,
      this.#context.clock,
    );
  }
}
