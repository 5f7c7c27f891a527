import { loadConfig } from '@doppel/core/config';
import { isMigrated } from '@doppel/core/db/migrate';
import { openRuntime } from '@doppel/core/runtime';
import { parseCommandLine } from './arguments';
import type { Action, Command } from './command';
import { apiDisable, apiEnable, apiStatus } from './commands/api';
import { creditsGrant, creditsShow } from './commands/credits';
import { deliveriesList, deliveriesRedeliver } from './commands/deliveries';
import { keysCreate, keysList, keysRevoke } from './commands/keys';
import { migrate } from './commands/migrate';
import { usersCreate, usersInvite, usersShow } from './commands/users';
import { CliError, UsageError, failureLine } from './errors';
import { render } from './output';
import { commandUsage, groupUsage, overallUsage } from './usage';

/** In the order the usage text lists them. */
const commands: readonly Command[] = [
  usersCreate,
  usersShow,
  usersInvite,
  keysCreate,
  keysList,
  keysRevoke,
  creditsGrant,
  creditsShow,
  apiDisable,
  apiEnable,
  apiStatus,
  deliveriesList,
  deliveriesRedeliver,
  migrate,
];

interface Outcome {
  stdout?: string;
  stderr?: string;
  exitCode: number;
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

function findCommand(argv: string[]): { command: Command; rest: string[] } {
  for (const words of [2, 1]) {
    const command = commands.find((c) => c.name === argv.slice(0, words).join(' '));
    if (command) return { command, rest: argv.slice(words) };
  }
  const [group, action] = argv;
  const members = commands.filter((c) => c.name.startsWith(`${group} `));
  if (members.length === 0) throw new UsageError(`unknown command '${group}'; see 'doppel --help'`);
  if (action === undefined || action.startsWith('-')) {
    const choices = members.map((c) => c.name.slice(group!.length + 1)).join(', ');
    throw new UsageError(`'${group}' needs one of: ${choices}; see 'doppel ${group} --help'`);
  }
  throw new UsageError(`unknown command '${group} ${action}'; see 'doppel ${group} --help'`);
}

/** Everything that can be checked without a database, so bad usage never opens one. */
function prepare(command: Command, rest: string[]): 'help' | { action: Action; json: boolean } {
  try {
    const parsed = parseCommandLine(command, rest);
    return parsed.help ? 'help' : { action: command.prepare(parsed), json: parsed.json };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${error.message}; see 'doppel ${command.name} --help'`);
    throw error;
  }
}

async function run(argv: string[]): Promise<Outcome> {
  if (argv.length === 0 || isHelp(argv[0])) return { stdout: `${overallUsage(commands)}\n`, exitCode: 0 };
  const group = commands.filter((c) => c.name.startsWith(`${argv[0]} `));
  if (group.length > 0 && isHelp(argv[1])) return { stdout: `${groupUsage(argv[0]!, group)}\n`, exitCode: 0 };

  const { command, rest } = findCommand(argv);
  const prepared = prepare(command, rest);
  if (prepared === 'help') return { stdout: `${commandUsage(command)}\n`, exitCode: 0 };
  const { action, json } = prepared;

  // Schema changes are left to `migrate` (and server start-up), never done as a side effect.
  const runtime = await openRuntime(loadConfig(), { migrate: false });
  try {
    if (!command.migratesSchema && !(await isMigrated(runtime.db))) {
      throw new CliError("the database schema is not up to date; run 'doppel migrate' first");
    }
    return { ...render(await action(runtime), json), exitCode: 0 };
  } finally {
    await runtime.close();
  }
}

const outcome = await run(process.argv.slice(2)).catch(
  (error: unknown): Outcome => ({
    stderr: `doppel: ${failureLine(error)}\n`,
    exitCode: error instanceof CliError ? error.exitCode : 1,
  }),
);
// A reader that went away (`doppel ... | head -1`) is not a failure of the command.
const write = (stream: NodeJS.WriteStream, text: string | undefined) =>
  new Promise<void>((resolve) => {
    if (!text) return resolve();
    stream.once('error', () => resolve());
    stream.write(text, () => resolve());
  });
await write(process.stdout, outcome.stdout);
await write(process.stderr, outcome.stderr);
// Exit explicitly with the command's code, whatever handles (a pool's idle timers) are still open.
process.exit(outcome.exitCode);
