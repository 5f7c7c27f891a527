export { workerRole } from './worker-role';
export { openCompute, computeOnPool } from './jobs/compute';
export { startWorkers, type WorkerDeps, type Workers } from './jobs/start-workers';
export { runSwapJob, INTERNAL_FAILURE, type SwapDeps } from './jobs/swap-job';
export { runMaintenance } from './jobs/maintenance-job';
export { deliverWebhook } from './webhooks/deliver';
