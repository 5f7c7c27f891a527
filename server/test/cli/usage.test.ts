import { describe, expect, it } from 'vitest';
import { cliFor, runCli } from '../support/run-cli';

// Nothing listens on port 1: a command that tried to connect would fail differently.
const doppel = cliFor('postgres://nobody@127.0.0.1:1/none');

const commandLines = [
  'users create --email EMAIL [--tier TIER] [--credits N]',
  'users show --email EMAIL',
  'keys create --user USER_ID',
  'keys list --user USER_ID',
  'keys revoke KEY_PREFIX_OR_ID',
  'credits grant --user USER_ID --bucket permanent|monthly|subscription --amount N',
  'credits show --user USER_ID',
  'api disable',
  'api enable',
  'api status',
  'migrate',
];

describe('doppel usage', () => {
  it('prints the usage, listing every command, with no arguments and with --help', async () => {
    for (const args of [[], ['--help'], ['-h']]) {
      const run = await doppel(...args);
      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Usage: doppel <command> \[options\]/);
      for (const line of commandLines) expect(run.stdout).toContain(`  ${line}\n`);
      expect(run.stdout).toContain('--json');
    }
  });

  it("prints a group's commands for `doppel keys --help`", async () => {
    const run = await doppel('keys', '--help');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage: doppel keys <command>/);
    expect(run.stdout).toContain('keys revoke KEY_PREFIX_OR_ID');
    expect(run.stdout).not.toContain('users create');
  });

  it("prints one command's usage for `--help` after it, without touching the database", async () => {
    const run = await doppel('credits', 'grant', '--help');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^Usage: doppel credits grant --user USER_ID --bucket permanent\|monthly\|subscription --amount N \[--json\]\n/,
    );
  });
});

describe('doppel bad usage', () => {
  // Each case: arguments, then the one line expected on stderr. All exit with code 2, before any database work.
  const cases: [string[], string][] = [
    [['frobnicate'], "doppel: unknown command 'frobnicate'; see 'doppel --help'"],
    [['keys'], "doppel: 'keys' needs one of: create, list, revoke; see 'doppel keys --help'"],
    [['keys', 'rotate'], "doppel: unknown command 'keys rotate'; see 'doppel keys --help'"],
    [['keys', 'create'], "doppel: --user is required; see 'doppel keys create --help'"],
    [['keys', 'create', '--user'], "doppel: Option '--user <value>' argument missing; see 'doppel keys create --help'"],
    [['keys', 'create', '--usr', 'u'], "doppel: Unknown option '--usr'; see 'doppel keys create --help'"],
    [['keys', 'create', '--user', 'u', 'extra'], "doppel: unexpected argument 'extra'; see 'doppel keys create --help'"],
    [['keys', 'revoke'], "doppel: KEY_PREFIX_OR_ID is required; see 'doppel keys revoke --help'"],
    [['api', 'status', '--json=yes'], "doppel: Option '--json' does not take an argument; see 'doppel api status --help'"],
  ];
  for (const [args, line] of cases) {
    it(`rejects \`doppel ${args.join(' ')}\``, async () => {
      expect(await doppel(...args)).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
    });
  }
});

describe('doppel failures', () => {
  it('reports an unreachable database in one line, exit code 1', async () => {
    const run = await doppel('api', 'status');
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^doppel: cannot reach the database: connect ECONNREFUSED 127\.0\.0\.1:1\n$/);
  });

  it('reports a bad setting by its variable name', async () => {
    const run = await runCli(['api', 'status'], { DATABASE_URL: 'not a url' });
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: invalid configuration: DATABASE_URL: Invalid url\n' });
  });
});
