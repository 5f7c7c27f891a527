import { requireFfmpeg } from '@doppel/engine';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@doppel/server';
import { ConfigError, loadConfig, type Config } from '@doppel/core/config';
import { openCompute } from '@doppel/worker';
import { startWorkers, type Workers } from '@doppel/worker';
import { createLogger, scrubSecrets } from '@doppel/core/logging';
import { openRuntime, type Runtime } from '@doppel/core/runtime';
import { openServices, type Services } from '@doppel/core/services';

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
 * `pnpm start` (DOPPEL_ROLE=all): the API and the job workers in one process, on the embedded
 * PostgreSQL unless DATABASE_URL is set. DOPPEL_ROLE=api or worker runs one side, so both scale
 * out separately on one database.
 *
 * SIGTERM or SIGINT begins a graceful shutdown, bounded by DOPPEL_SHUTDOWN_GRACE_SECONDS: new
 * requests are answered 503 in the envelope and no new jobs are taken; running requests and jobs
 * finish; long polls answer with what they have shortly before the deadline; jobs still running
 * then go back to the queue; the database (the embedded PostgreSQL last) closes and the process
 * exits 0. A second signal exits at once.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config);
  const parts: {
    runtime?: Runtime;
    services?: Services;
    compute?: { close(): Promise<void> };
    workers?: Workers;
    app?: FastifyInstance;
  } = {};

  let stopping = false;
  // Connection errors while the database closes under us are expected then, not worth an error line.
  const onQueueError = (error: Error) =>
    stopping ? logger.debug({ err: error }, 'queue error while stopping') : logger.error({ err: error }, 'queue error');
  const onDatabaseLost = (error: Error) => {
    logger.fatal({ err: error }, 'the embedded PostgreSQL died and could not be restarted; exiting');
    void stop(1);
  };

  const starting = (async () => {
    // Every role needs ffprobe (the API measures video at create, workers scan and render):
    // without it video caps could not be checked, so refuse to start rather than skip them.
    await requireFfmpeg();
    const runtime = (parts.runtime = await openRuntime(config, { onDatabaseLost }));
    const services = (parts.services = await openServices(runtime, { onError: onQueueError }));
    if (config.role !== 'api') {
      const compute = (parts.compute = openCompute(config));
      parts.workers = await startWorkers({ ...runtime, ...services, logger, compute });
      logger.info({ role: config.role }, 'job workers started');
    }
    if (config.role !== 'worker') {
      const app = (parts.app = await buildApp(runtime, services, { logger }));
      await app.listen({ host: config.host, port: config.port });
    }
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
    const { app, workers } = parts;
    app?.deps.drain.begin();
    const endWaits = setTimeout(() => app?.deps.drain.endWaits(), at(timeline.endWaitsAfterMs));
    const cutConnections = setTimeout(() => app?.server.closeAllConnections(), at(timeline.cutConnectionsAfterMs));
    // Workers keep taking jobs until the requests are done: a create may wait on a content scan.
    await app?.close();
    clearTimeout(endWaits);
    clearTimeout(cutConnections);
    await workers?.stop(at(timeline.handBackJobsAfterMs));
    await parts.compute?.close();
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

void main();
