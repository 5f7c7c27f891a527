import { checkMasterKey, loadMasterKey, KeyVault } from './keys/key-vault';
import type { Config } from './config';
import { connectDatabase, type Db } from './db/connect';
import { openEmbeddedPostgres } from './db/embedded';
import { isMigrated, migrateToLatest } from './db/migrate';

/** What every entry point (API server, worker, CLI) needs: the database and the key vault. */
export interface Runtime {
  config: Config;
  db: Db;
  databaseUrl: string;
  vault: KeyVault;
  close(): Promise<void>;
}

export async function openRuntime(
  config: Config,
  options: { migrate?: boolean; log?: (message: string) => void; onDatabaseLost?: (error: Error) => void } = {},
): Promise<Runtime> {
  const embedded = config.databaseUrl
    ? undefined
    : await openEmbeddedPostgres(config.dataDir, { log: options.log, onLost: options.onDatabaseLost });
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const db = connectDatabase(databaseUrl, { max: config.dbPoolSize });
  try {
    if (options.migrate ?? true) await migrateToLatest(db);
    const masterKey = await loadMasterKey(config.masterKey, config.dataDir);
    // An unmigrated database (the CLI before `doppel migrate`) has no fingerprint to compare yet.
    if (await isMigrated(db)) await checkMasterKey(db, masterKey);
    const vault = new KeyVault(masterKey);
    return {
      config,
      db,
      databaseUrl,
      vault,
      async close() {
        await db.destroy();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await db.destroy();
    await embedded?.stop();
    throw error;
  }
}
