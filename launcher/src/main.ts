import { runProcess, type ProcessRole } from '@doppel/core/process/run-process';
import { apiRole } from '@doppel/server';

/**
 * `pnpm start`: a Doppel process with the roles DOPPEL_ROLE names: `all` (the default) runs the
 * HTTP API and the job workers in one process, `api` or `worker` one side, so both scale out
 * separately on one database. Neither side imports the other; this is the one place that knows
 * both. The worker is imported only when it runs here: it loads the engine's models (tfjs), which
 * an API-only process never needs.
 */
void runProcess(async (config) => {
  const roles: ProcessRole[] = [];
  if (config.role !== 'api') roles.push((await import('@doppel/worker')).workerRole);
  if (config.role !== 'worker') roles.push(apiRole);
  return roles;
});
