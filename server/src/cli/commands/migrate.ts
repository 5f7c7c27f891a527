import { latestMigration, migrateToLatest } from '@doppel/core/db/migrate';
import type { Command } from '../command';

export const migrate: Command = {
  name: 'migrate',
  synopsis: '',
  summary: 'Apply pending database migrations (the server also does this at start-up)',
  options: [],
  migratesSchema: true,
  prepare: () => async ({ db }) => {
    const applied = await migrateToLatest(db);
    return {
      json: { applied, latest: latestMigration },
      text: applied.length > 0 ? `Applied ${applied.join(', ')}.` : `Already up to date (${latestMigration}).`,
    };
  },
};
