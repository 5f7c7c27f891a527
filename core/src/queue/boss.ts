import { PgBoss } from 'pg-boss';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { preparedQuery } from '../db/connect';
import type { Database } from '../db/schema';
import type { QueuePayloads } from './payloads';

/** Every queue the service uses, with the delivery guarantees each needs. */
export const queues = {
  /** Swaps whose job ran out of attempts; their handler fails the swap and refunds it. */
  swapDead: { name: 'swap-dead', retryLimit: 5, retryDelay: 5 },
  faceDetectDead: { name: 'face-detect-dead', retryLimit: 5, retryDelay: 5 },
  /**
   * A swap: seconds to minutes of CPU. A worker that dies is noticed through missed heartbeats
   * within about `heartbeatSeconds`, and the job is tried again on another worker.
   */
  swap: {
    name: 'swap',
    policy: 'standard',
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: false,
    heartbeatSeconds: 15,
    expireInSeconds: 60 * 60,
    deadLetter: 'swap-dead',
    // pg-boss's defaults, written out: the create writes this queue's jobs itself (jobInsertStep).
    retentionSeconds: 14 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  faceDetect: {
    name: 'face-detect',
    retryLimit: 2,
    retryDelay: 2,
    heartbeatSeconds: 15,
    expireInSeconds: 10 * 60,
    deadLetter: 'face-detect-dead',
  },
  /** Housekeeping on a schedule: retention, expired idempotency keys, abandoned reservations. */
  maintenance: { name: 'maintenance', retryLimit: 1, retryDelay: 60, expireInSeconds: 10 * 60 },
  contentScan: { name: 'content-scan', retryLimit: 2, retryDelay: 1, heartbeatSeconds: 30, expireInSeconds: 10 * 60 },
  /**
   * One delivery attempt of a webhook event. Failed deliveries are not pg-boss retries: the job
   * records the attempt and queues the next one on the documented schedule. pg-boss retries only
   * cover a worker that crashed or lost the database mid-attempt.
   */
  webhook: { name: 'webhook', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 2 * 60 },
} as const;

export type QueueName = (typeof queues)[keyof typeof queues]['name'];

export const BOSS_SCHEMA = 'pgboss';

/** Job states in which pg-boss will still run a job. */
const LIVE_JOB_STATES = ['created', 'retry', 'active'];

/**
 * SQL: whether one of these queues holds a job pg-boss will still run whose payload's `field` is
 * `id`, for the owners of rows that only a job moves on (a row without one is left for ever).
 */
export function liveJobExists<Queue extends QueueName>(
  names: Queue[],
  field: keyof QueuePayloads[Queue] & string,
  id: RawBuilder<string>,
): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from ${sql.table(`${BOSS_SCHEMA}.job`)} j
    where j.name in (${sql.join(names)})
      and j.state::text in (${sql.join(LIVE_JOB_STATES)})
      and j.data ->> ${sql.lit(field)} = ${id})`;
}

export async function startBoss(connectionString: string, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: BOSS_SCHEMA,
    max: 4,
    // Missed heartbeats are looked for this often: with the swap queue's 15 s heartbeat, a job
    // whose worker died is retried elsewhere within about half a minute.
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
  });
  boss.on('error', onError);
  await boss.start();
  for (const { name, ...options } of Object.values(queues)) {
    await boss.createQueue(name, options);
  }
  return boss;
}

/**
 * pg-boss's statements through `db`, each prepared on its connection: a job insert is the same
 * text for every job of a queue, and a long one, which PostgreSQL would otherwise parse and plan
 * on every create.
 */
function preparedThrough(db: Kysely<Database>) {
  return {
    executeSql: async (text: string, values?: unknown[]) => ({ rows: (await db.executeQuery(preparedQuery(text, values ?? []))).rows }),
  };
}

/** A queue whose every setting a job row takes is given here, so its jobs can be written without pg-boss. */
interface FullySetQueue {
  name: QueueName;
  policy: 'standard';
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  retentionSeconds: number;
  deleteAfterSeconds: number;
  heartbeatSeconds?: number;
  deadLetter?: string;
}

/**
 * A job as a step of a larger statement, so that the create's one statement queues its swap too:
 * a plain `insert into pgboss.job`, which pg-boss documents for jobs made outside `send` (docs,
 * "SQL": the job table), with every column `send` copies from the queue set from the same
 * settings the queue was created with. The row is the one `send` writes but for its id and times
 * (core/test/queue/job-insert.test.ts). Only for queues without `notify`, whose workers poll.
 */
export function jobInsertStep<Queue extends FullySetQueue>(
  queue: Queue,
  data: QueuePayloads[Queue['name']],
  options: { group?: { id: string } } = {},
): RawBuilder<unknown> {
  return sql`insert into ${sql.table(`${BOSS_SCHEMA}.job`)} (name, data, policy, retry_limit, retry_delay, retry_backoff, expire_seconds,
      deletion_seconds, keep_until, dead_letter, heartbeat_seconds, group_id)
    values (${queue.name}, ${JSON.stringify(data)}::jsonb, ${queue.policy}, ${queue.retryLimit}::int, ${queue.retryDelay}::int,
      ${queue.retryBackoff}::boolean, ${queue.expireInSeconds}::int, ${queue.deleteAfterSeconds}::int,
      now() + make_interval(secs => ${queue.retentionSeconds}::int), ${queue.deadLetter ?? null}::text,
      ${queue.heartbeatSeconds ?? null}::int, ${options.group?.id ?? null}::text)`;
}

/**
 * Queues a job through `db`: given a transaction, the job exists exactly when the rows it works
 * on do. pg-boss answers null instead of failing when it stored nothing; that is an error here.
 */
export async function sendJob<Queue extends QueueName>(
  boss: PgBoss,
  db: Kysely<Database>,
  queue: Queue,
  data: QueuePayloads[Queue],
  options: { startAfter?: Date; group?: { id: string } } = {},
): Promise<string> {
  const id = await boss.send(queue, data, { db: preparedThrough(db), ...options });
  if (!id) throw new Error(`queue ${queue} did not accept the job`);
  return id;
}
