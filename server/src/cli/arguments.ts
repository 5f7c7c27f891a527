import { parseArgs } from 'node:util';
import type { Command, CommandArgs } from './command';
import { UsageError } from './errors';

export interface ParsedCommandLine extends CommandArgs {
  json: boolean;
  help: boolean;
}

/** Parses what follows the command's words; anything unexpected is a usage error. */
export function parseCommandLine(command: Command, argv: string[]): ParsedCommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(command.options.map((name) => [name, { type: 'string' as const }])),
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Node's messages go on to explain `--` escaping over several sentences; the first one says it.
    throw new UsageError((error as Error).message.split(/\.\s|\n/)[0]!);
  }
  const { json = false, help = false, ...options } = parsed.values as Record<string, string | boolean | undefined>;
  const expected = command.positionals ?? [];
  if (!help) {
    const missing = expected[parsed.positionals.length];
    if (missing) throw new UsageError(`${missing} is required`);
    const extra = parsed.positionals[expected.length];
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  }
  return { json: json === true, help: help === true, options: options as Record<string, string>, positionals: parsed.positionals };
}

export function requireOption(args: CommandArgs, name: string): string {
  const value = args.options[name];
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}
