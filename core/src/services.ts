import type { SecureContextOptions } from 'node:tls';
import type { PgBoss } from 'pg-boss';
import { InstanceLiveness } from './db/instance-liveness';
import { createFetchGuard, type FetchGuard } from './media/fetch-guard';
import { startBoss } from './queue/boss';
import { Notifications } from './queue/notifications';
import type { Runtime } from './runtime';
import { openStorage } from './storage/open-storage';
import type { Storage } from './storage/storage';

/** What the API's create routes and the job workers share beyond the database. */
export interface Services {
  boss: PgBoss;
  storage: Storage;
  guard: FetchGuard;
  notifications: Notifications;
  /** This process's identity and liveness, for claims that must end when it dies. */
  instance: InstanceLiveness;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Where background failures (a lost queue connection, ...) are reported. */
  onError: (error: Error) => void;
  /** Trusted roots replacing the system store for fetched media (tests only). */
  ca?: SecureContextOptions['ca'];
  storage?: Storage;
}

export async function openServices(
  runtime: Pick<Runtime, 'config' | 'databaseUrl'>,
  options: ServiceOptions,
): Promise<Services> {
  const { config } = runtime;
  const guard = createFetchGuard({
    dohResolvers: config.media.dohUrls,
    allowPrivateCidrs: config.media.allowPrivateCidrs,
    ca: options.ca,
  });
  const instance = new InstanceLiveness(runtime.databaseUrl);
  await instance.start();
  const notifications = new Notifications(runtime.databaseUrl);
  await notifications.start();
  const boss = await startBoss(runtime.databaseUrl, options.onError);
  return {
    boss,
    storage: options.storage ?? openStorage(config),
    guard,
    notifications,
    instance,
    async close() {
      // Workers.stop has waited for running jobs already; any still running now go back to the
      // queue (pg-boss fails them, and they are retried) instead of holding up the exit.
      await boss.stop({ graceful: false });
      await notifications.close();
      // Last: whatever this process still holds is free from here on.
      await instance.close();
    },
  };
}
