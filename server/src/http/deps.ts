import type { KeyVault } from '../auth/key-vault';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import type { IntakeBudget } from '../intake/intake-budget';
import type { Metrics } from '../ops/metrics';
import type { Services } from '../services';

/** The services every route and hook reaches through `request.server.deps`. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: KeyVault;
  metrics: Metrics;
  boss: Services['boss'];
  storage: Services['storage'];
  guard: Services['guard'];
  notifications: Services['notifications'];
  /** Bytes of fetched media this process's creates may hold at once. */
  intakeBudget: IntakeBudget;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
