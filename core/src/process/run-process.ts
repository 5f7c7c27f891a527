import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config';
import { createLogger, scrubSecrets } from '../logging';
import { openRuntime, type Runtime } from '../runtime';
import { openServices, type Services } from '../services';

/** What a role starts with: the process's database, key vault, queues, storage and logger. */
export type RoleContext = Runtime & Services & { logger: Logger };

/** When, from now, each step of a graceful shutdown is due (see `shutdownTimeline`). */
export interface ShutdownDeadlines {
  /** Long polls answer with what they have. */
  endWaitsInMs(): number;
  /** Open connections are cut. */
  cutConnectionsInMs(): number;
  /** Jobs still running go back to the queue. */
  handBackJobsInMs(): number;
}

export interface RunningRole {
  /** Stops taking work and lets what runs finish, within the deadlines. */
  stop(deadlines: ShutdownDeadlines): Promise<void>;
}

/**
 * One side of a Doppel process: the HTTP API (`@doppel/server`) or the job worker
 * (`@doppel/worker`). The process knows them only by this shape, so neither imports the other.
 */
export interface ProcessRole {
  name: 'api' | 'worker';
  /** Checks made before anything opens (a missing tool is refused at once). */
  check?(): Promise<void>;
  start(context: RoleContext): Promise<RunningRole>;
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** How the grace period is spent: long polls end first, so they can still answer, then sockets. */
function shutdownTimeline(graceMs: number) {
  return {
    endWaitsAfterMs: Math.max(graceMs - 3_000, graceMs / 2),
    cutConnectionsAfterMs: Math.max(graceMs - 2_000, (graceMs * 2) / 3),
    handBackJobsAfterMs: Math.max(graceMs - 1_500, (graceMs * 3) / 4),
  };
}

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Runs a Doppel process with the roles `pick` chooses for its settings (DOPPEL_ROLE), on the
 * embedded PostgreSQL unless DATABASE_URL is set. Roles start in the order given and stop in the
 * reverse order: given [worker, api], jobs are taken before requests come in, and requests are
 * done before jobs stop (a create may be waiting on a content scan).
 *
 * SIGTERM or SIGINT begins a graceful shutdown, bounded by DOPPEL_SHUTDOWN_GRACE_SECONDS: new
 * requests are answered 503 in the envelope and no new jobs are taken; running requests and jobs
 * finish; long polls answer with what they have shortly before the deadline; jobs still running
 * then go back to the queue; the database (the embedded PostgreSQL last) closes and the process
 * exits 0. A second signal exits at once.
 */
export async function runProcess(pick: (config: Config) => Promise<ProcessRole[]>): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config);
  const parts: { runtime?: Runtime; services?: Services; running: RunningRole[] } = { running: [] };

  let stopping = false;
  // Connection errors while the database closes under us are expected then, not worth an error line.
  const onQueueError = (error: Error) =>
    stopping ? logger.debug({ err: error }, 'queue error while stopping') : logger.error({ err: error }, 'queue error');
  const onDatabaseLost = (error: Error) => {
    logger.fatal({ err: error }, 'the embedded PostgreSQL died and could not be restarted; exiting');
    void stop(1);
  };

  const starting = (async () => {
    const roles = await pick(config);
    for (const role of roles) await role.check?.();
    const runtime = (parts.runtime = await openRuntime(config, { onDatabaseLost }));
    const services = (parts.services = await openServices(runtime, { onError: onQueueError }));
    for (const role of roles) parts.running.push(await role.start({ ...runtime, ...services, logger }));
  })();

  async function stop(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    const timeline = shutdownTimeline(graceMs);
    const begun = Date.now();
    const at = (ms: number) => Math.max(0, ms - (Date.now() - begun));
    setTimeout(() => {
      logger.error({ grace_seconds: config.shutdownGraceSeconds }, 'shutdown did not finish within its grace period; exiting');
      process.exit(1);
    }, graceMs).unref();

    // A signal during start-up waits for it, then closes whatever had opened.
    await starting.catch(() => {});
    logger.info({ grace_seconds: config.shutdownGraceSeconds }, 'shutting down');
    const deadlines: ShutdownDeadlines = {
      endWaitsInMs: () => at(timeline.endWaitsAfterMs),
      cutConnectionsInMs: () => at(timeline.cutConnectionsAfterMs),
      handBackJobsInMs: () => at(timeline.handBackJobsAfterMs),
    };
    for (const role of parts.running.toReversed()) await role.stop(deadlines);
    await parts.services?.close();
    await parts.runtime?.close();
    logger.info({ seconds: (Date.now() - begun) / 1000 }, 'stopped');
    process.exit(exitCode);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (!stopping) return void stop(0);
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(SIGNAL_EXIT_CODES[signal]);
    });
  }

  try {
    await starting;
  } catch (error) {
    console.error(`doppel: could not start: ${scrubSecrets(error instanceof Error ? error.message : String(error))}`);
    await stop(1);
  }
}
