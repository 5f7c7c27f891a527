import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect';
import * as initial from './migrations/0001-initial';
import * as taskIntake from './migrations/0002-task-intake';
import * as webhooks from './migrations/0003-webhooks';
import * as swapResults from './migrations/0004-swap-results';
import * as metadataAsWritten from './migrations/0005-metadata-as-written';
import * as requestPath from './migrations/0006-request-path';
import * as crashRecovery from './migrations/0007-crash-recovery';
import * as dashboard from './migrations/0008-dashboard';
import * as storageQuota from './migrations/0009-storage-quota';
import * as createInFewerRoundTrips from './migrations/0010-create-in-fewer-round-trips';
import * as storageQuotaInTheCreateRoundTrips from './migrations/0011-storage-quota-in-the-create-round-trips';
import * as scanVerdictUse from './migrations/0012-scan-verdict-use';
import * as createInOneStatement from './migrations/0013-create-in-one-statement';

/** Migrations are compiled into the program, so a deployment can never miss a file. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-task-intake': taskIntake,
  '0003-webhooks': webhooks,
  '0004-swap-results': swapResults,
  '0005-metadata-as-written': metadataAsWritten,
  '0006-request-path': requestPath,
  '0007-crash-recovery': crashRecovery,
  '0008-dashboard': dashboard,
  '0009-storage-quota': storageQuota,
  '0010-create-in-fewer-round-trips': createInFewerRoundTrips,
  '0011-storage-quota-in-the-create-round-trips': storageQuotaInTheCreateRoundTrips,
  '0012-scan-verdict-use': scanVerdictUse,
  '0013-create-in-one-statement': createInOneStatement,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export const latestMigration = Object.keys(migrations).sort().at(-1)!;

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`database migration failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every migration this build knows has been applied. */
export async function isMigrated(db: Db): Promise<boolean> {
  const applied = await new Migrator({ db, provider }).getMigrations();
  return applied.every((m) => m.executedAt !== undefined);
}
