import type { KeyVault } from '@doppel/core/keys/key-vault';
import type { Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import type { IntakeBudget } from '../intake/intake-budget';
import type { Metrics } from '../ops/metrics';
import type { Services } from '@doppel/core/services';
import type { Drain } from './drain';

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
  instance: Services['instance'];
  /** Graceful shutdown: main.ts begins it on SIGTERM/SIGINT. */
  drain: Drain;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
