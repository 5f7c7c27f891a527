import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, type IssuedKey } from '@doppel/core/accounts/api-keys';
import { createUser } from '@doppel/core/accounts/users';
import { KeyVault } from '@doppel/core/keys/key-vault';
import type { SwapRow } from '@doppel/core/db/schema';
import { newId } from '@doppel/core/ids';
import { queues, startBoss } from '@doppel/core/queue/boss';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { deliverWebhook } from '@doppel/worker';
import { enqueueWebhookEvent } from '@doppel/core/webhooks/events';
import type { WebhookJob } from '@doppel/core/queue/payloads';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { startReceiverWorld, type ReceiverWorld } from '@doppel/core/testing/webhook-receiver';
import { cliFor, newMasterKey } from '@doppel/server/testing/run-cli';


let t: TestDatabase;
let boss: PgBoss;
let hooks: ReceiverWorld;
let key: IssuedKey;
let doppel: ReturnType<typeof cliFor>;
const masterKey = newMasterKey();
const vault = new KeyVault(masterKey);

/** What the receiver does on its next requests, one entry per request, in order. */
const answers: ((res: ServerResponse) => void)[] = [];
const answerWith = (status: number) => (res: ServerResponse) => res.writeHead(status).end();
const dropConnection = (res: ServerResponse) => res.socket?.destroy();

beforeAll(async () => {
  t = await createTestDatabase();
  doppel = cliFor(t.url, masterKey);
  hooks = await startReceiverWorld({
    '/hook': (_req: IncomingMessage, res: ServerResponse) => (answers.shift() ?? answerWith(200))(res),
  });
  boss = await startBoss(t.url, (error) => {
    throw error;
  });
  const user = await createUser(t.db, { email: 'deliveries@example.com' });
  key = await issueApiKey(t.db, vault, user.id);
});

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await hooks?.close();
  await t?.close();
});

async function insertProcessingSwap(webhookUrl: string | null): Promise<SwapRow> {
  return insertSwap(t.db, {
    id: newId('swp'),
    api_key_id: key.id,
    user_id: key.userId,
    type: 'image',
    status: 'processing',
    credit_cost: 1,
    updated_at: new Date(),
    result_url: null,
    error: null,
    metadata: null,
    webhook_url: webhookUrl,
    params: JSON.stringify({}),
    inputs: JSON.stringify({}),
    completed_at: null,
  });
}

/** A swap that finished done, with its event stored and its first attempt queued, as the swap job does it. */
async function finishedSwapWithEvent(): Promise<{ swapId: string; eventId: string }> {
  const swap = await insertProcessingSwap(hooks.url('/hook'));
  return t.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('swaps')
      .set({ status: 'done', progress: 100, result_url: 'https://cdn.example.com/r.jpg', completed_at: new Date() })
      .where('id', '=', swap.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { swapId: swap.id, eventId: (await enqueueWebhookEvent(trx, boss, row))! };
  });
}

/** One attempt, run as a webhook worker would run the job. */
const attempt = (job: WebhookJob) => deliverWebhook(boss, { db: t.db, vault, guard: hooks.guard }, job);

const webhookJobs = (eventId: string) => boss.findJobs<WebhookJob>(queues.webhook.name, { data: { eventId } });

describe('doppel deliveries list', () => {
  it("shows each event of a swap with its status, url and every attempt's time, status code, latency and error", async () => {
    const { swapId, eventId } = await finishedSwapWithEvent();
    answers.push(dropConnection, answerWith(500));
    await attempt({ eventId, step: 0 });
    await attempt({ eventId, step: 1 });

    const run = await doppel('deliveries', 'list', '--swap', swapId);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    const time = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`;
    expect(lines[0]).toBe(`event         ${eventId}  swap.completed`);
    expect(lines[1]).toBe('status        pending');
    expect(lines[2]).toBe(`url           ${hooks.url('/hook')}`);
    expect(lines[3]).toMatch(new RegExp(`^created       ${time}$`));
    // Two attempts failed, so the schedule has the third one waiting.
    expect(lines[4]).toMatch(new RegExp(`^next attempt  ${time}$`));
    expect(lines[5]).toBe('completed     -');
    expect(lines[6]).toMatch(/^ {2}#\s+STARTED\s+STATUS\s+LATENCY\s+ERROR$/);
    expect(lines[7]).toMatch(new RegExp(`^ {2}1\\s+${time}\\s+-\\s+\\d+ ms\\s+\\S.*$`));
    expect(lines[8]).toMatch(new RegExp(`^ {2}2\\s+${time}\\s+500\\s+\\d+ ms\\s+-$`));
    expect(lines).toHaveLength(9);
  });

  it('prints one JSON document with every field of the events and their attempts under --json', async () => {
    const { swapId, eventId } = await finishedSwapWithEvent();
    answers.push(answerWith(503));
    await attempt({ eventId, step: 0 });

    const run = await doppel('deliveries', 'list', '--swap', swapId, '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.parse(run.stdout)).toEqual({
      swap_id: swapId,
      events: [
        {
          id: eventId,
          event: 'swap.completed',
          status: 'pending',
          url: hooks.url('/hook'),
          created_at: iso,
          next_attempt_at: iso,
          completed_at: null,
          attempts: [{ attempt: 1, started_at: iso, status_code: 503, latency_ms: expect.any(Number), error: null }],
        },
      ],
    });
  });

  it('says so when a swap has no events, and fails for an unknown swap', async () => {
    const quiet = await insertProcessingSwap(null);
    expect(await doppel('deliveries', 'list', '--swap', quiet.id)).toEqual({
      exitCode: 0,
      stdout: `No webhook events for ${quiet.id} (it has no webhook_url, is not finished, or was canceled).\n`,
      stderr: '',
    });
    expect(JSON.parse((await doppel('deliveries', 'list', '--swap', quiet.id, '--json')).stdout)).toEqual({
      swap_id: quiet.id,
      events: [],
    });
    expect(await doppel('deliveries', 'list', '--swap', 'swp_nothing')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'doppel: no swap with id swp_nothing\n',
    });
  });
});

describe('doppel deliveries redeliver', () => {
  it('queues one more attempt outside the schedule, which a worker then sends as the next attempt', async () => {
    const { swapId, eventId } = await finishedSwapWithEvent();
    answers.push(answerWith(500));
    await attempt({ eventId, step: 0 });

    const run = await doppel('deliveries', 'redeliver', eventId);
    const url = hooks.url('/hook');
    expect(run).toEqual({
      exitCode: 0,
      stdout:
        `Queued one more attempt of ${eventId} (swap.completed to ${url}). ` +
        `A worker process sends it; see 'doppel deliveries list --swap ${swapId}'.\n`,
      stderr: '',
    });
    const redelivery = (await webhookJobs(eventId)).filter((job) => job.data.step === null);
    expect(redelivery).toHaveLength(1);

    // The queued job, run as a worker would, is attempt 2 and settles the event.
    await attempt(redelivery[0]!.data);
    const listed = JSON.parse((await doppel('deliveries', 'list', '--swap', swapId, '--json')).stdout);
    expect(listed.events[0].status).toBe('delivered');
    expect(listed.events[0].attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  it('prints what it queued as one JSON document under --json', async () => {
    const { swapId, eventId } = await finishedSwapWithEvent();
    const run = await doppel('deliveries', 'redeliver', eventId, '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      queued: { event_id: eventId, swap_id: swapId, event: 'swap.completed', url: hooks.url('/hook') },
    });
  });

  it('fails for an unknown event, queueing nothing', async () => {
    expect(await doppel('deliveries', 'redeliver', 'evt_nothing')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'doppel: no webhook event with id evt_nothing\n',
    });
    expect(await webhookJobs('evt_nothing')).toEqual([]);
  });
});

describe('doppel deliveries usage', () => {
  it('lists both commands under `doppel deliveries --help`', async () => {
    const run = await doppel('deliveries', '--help');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toContain('  deliveries list --swap SWAP_ID\n');
    expect(run.stdout).toContain('  deliveries redeliver EVENT_ID\n');
  });

  const cases: [string[], string][] = [
    [['deliveries', 'list'], "--swap is required; see 'doppel deliveries list --help'"],
    [['deliveries', 'redeliver'], "EVENT_ID is required; see 'doppel deliveries redeliver --help'"],
    [['deliveries', 'replay'], "unknown command 'deliveries replay'; see 'doppel deliveries --help'"],
  ];
  for (const [args, message] of cases) {
    it(`rejects \`doppel ${args.join(' ')}\` as bad usage`, async () => {
      expect(await doppel(...args)).toEqual({ exitCode: 2, stdout: '', stderr: `doppel: ${message}\n` });
    });
  }
});
