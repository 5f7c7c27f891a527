import type { Runtime } from '@doppel/core/runtime';

/** What a command prints: `json` with --json, `text` otherwise; `notice` goes to stderr in both cases. */
export interface Result {
  json: unknown;
  text: string;
  notice?: string;
}

export interface CommandArgs {
  options: Record<string, string | undefined>;
  positionals: string[];
}

export type Action = (runtime: Runtime) => Promise<Result>;

export interface Command {
  /** The words that select it, e.g. `keys create`. */
  name: string;
  /** Its arguments as the usage text shows them, e.g. `--user USER_ID`. */
  synopsis: string;
  summary: string;
  /** Options that take a value; `--json` and `--help` belong to every command. */
  options: readonly string[];
  /** Required positional arguments, by the names the usage text gives them. */
  positionals?: readonly string[];
  /** Only `migrate` sets this; every other command refuses to run on an outdated schema. */
  migratesSchema?: boolean;
  /** Validates the arguments before any database is opened and returns the work to do. */
  prepare(args: CommandArgs): Action;
}
