import { runProcess } from '@doppel/core/process/run-process';
import { workerRole } from './worker-role';

// `pnpm worker`: a process that runs the job workers only, any number of them beside API
// processes on one database (DOPPEL_ROLE is not read here; `pnpm start` reads it).
void runProcess(async () => [workerRole]);
