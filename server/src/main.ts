import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { scrubSecrets } from './http/logging';
import { openRuntime } from './runtime';

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
 * `pnpm start`: the API server, on the embedded PostgreSQL unless DATABASE_URL is set. SIGINT
 * and SIGTERM stop accepting requests, let in-flight ones finish, then stop the database, also
 * when they arrive while the database is still starting.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const opening = openRuntime(config);
  const building = opening.then((runtime) => buildApp(runtime));

  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    await (await building.catch(() => undefined))?.close();
    await (await opening.catch(() => undefined))?.close();
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    const app = await building;
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    console.error(`doppel: could not start: ${scrubSecrets(error instanceof Error ? error.message : String(error))}`);
    await stop(1);
  }
}

void main();
