import { requireFfmpeg } from '@doppel/engine/media';
import type { ProcessRole } from '@doppel/core/process/run-process';
import { buildApp } from './app';

/** The HTTP API as a role of a Doppel process (`@doppel/core/process/run-process`). */
export const apiRole: ProcessRole = {
  name: 'api',
  // The API measures video at create with ffprobe: without it video caps could not be checked,
  // so the process refuses to start rather than skip them.
  check: requireFfmpeg,
  async start(context) {
    const app = await buildApp(context, context, { logger: context.logger });
    await app.listen({ host: context.config.host, port: context.config.port });
    return {
      async stop(deadlines) {
        app.deps.drain.begin();
        const endWaits = setTimeout(() => app.deps.drain.endWaits(), deadlines.endWaitsInMs());
        const cutConnections = setTimeout(() => app.server.closeAllConnections(), deadlines.cutConnectionsInMs());
        await app.close();
        clearTimeout(endWaits);
        clearTimeout(cutConnections);
      },
    };
  },
};
