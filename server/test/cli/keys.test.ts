import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@doppel/core/accounts/users';
import { hashApiKey } from '@doppel/core/keys/key-format';
import { KeyVault } from '@doppel/core/keys/key-vault';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { cliFor, newMasterKey } from '../support/run-cli';

let t: TestDatabase;
const masterKey = newMasterKey();
let doppel: ReturnType<typeof cliFor>;
beforeAll(async () => {
  t = await createTestDatabase();
  doppel = cliFor(t.url, masterKey);
});
afterAll(() => t.close());

let emails = 0;
const newUser = async () => (await createUser(t.db, { email: `keys-${++emails}@example.com` })).id;
const keyRow = (id: string) => t.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('doppel keys create', () => {
  it('prints only the full key on stdout and the warning with its id on stderr', async () => {
    const user = await newUser();
    const run = await doppel('keys', 'create', '--user', user);
    expect(run.exitCode).toBe(0);
    const key = run.stdout.trimEnd();
    expect(run.stdout).toBe(`${key}\n`);
    expect(key).toMatch(/^dpl_[A-Za-z0-9_-]{43}$/);
    const [, id, prefix] = /^Issued key (key_\S+) \(prefix (dpl_\S{8})\) to (\S+)\. /.exec(run.stderr) ?? [];
    expect(run.stderr).toContain('Store it now: the full key is not shown again');
    expect(key.startsWith(prefix!)).toBe(true);

    // Stored by its hash and under the master key, never in plaintext.
    const row = await keyRow(id!);
    expect(row).toMatchObject({ user_id: user, prefix, revoked_at: null, last_used_at: null });
    expect(row.key_hash.equals(hashApiKey(key))).toBe(true);
    expect(row.key_ciphertext.includes(Buffer.from(key))).toBe(false);
    expect(new KeyVault(masterKey).open(row.key_ciphertext)).toBe(key);
  });

  it('prints one JSON document with the key under --json', async () => {
    const user = await newUser();
    const run = await doppel('keys', 'create', '--user', user, '--json');
    expect(run.exitCode).toBe(0);
    const issued = JSON.parse(run.stdout);
    expect(issued).toEqual({
      id: expect.stringMatching(/^key_/),
      user_id: user,
      prefix: issued.key.slice(0, 12),
      key: expect.stringMatching(/^dpl_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(run.stderr).toContain('not shown again');
    expect((await keyRow(issued.id)).key_hash.equals(hashApiKey(issued.key))).toBe(true);
  });

  it('fails for an unknown user, exit code 1, issuing nothing', async () => {
    const run = await doppel('keys', 'create', '--user', 'usr_nobody');
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: no user with id usr_nobody\n' });
    expect(await t.db.selectFrom('api_keys').select('id').where('user_id', '=', 'usr_nobody').execute()).toEqual([]);
  });
});

describe('doppel keys list', () => {
  it('lists id, prefix, created, last used and revoked, and never the key', async () => {
    const user = await newUser();
    const first = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const second = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    await t.db.updateTable('api_keys').set({ last_used_at: '2030-01-02T03:04:05Z' }).where('id', '=', first.id).execute();

    const run = await doppel('keys', 'list', '--user', user);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+PREFIX\s+CREATED\s+LAST USED\s+REVOKED$/);
    expect(lines[1]).toMatch(new RegExp(`^${first.id}\\s+${first.prefix}\\s+\\d{4}-\\S+Z\\s+2030-01-02T03:04:05Z\\s+-$`));
    expect(lines[2]).toMatch(new RegExp(`^${second.id}\\s+${second.prefix}\\s+\\d{4}-\\S+Z\\s+never\\s+-$`));
    expect(lines).toHaveLength(3);
    for (const key of [first.key, second.key]) expect(run.stdout).not.toContain(key);
  });

  it('gives the same facts under --json, without the key', async () => {
    const user = await newUser();
    const issued = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const run = await doppel('keys', 'list', '--user', user, '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      user_id: user,
      keys: [{ id: issued.id, prefix: issued.prefix, created_at: issued.created_at, last_used_at: null, revoked_at: null }],
    });
    expect(run.stdout).not.toContain(issued.key);
  });

  it('says so when the user has no keys, and fails for an unknown user', async () => {
    const user = await newUser();
    expect(await doppel('keys', 'list', '--user', user)).toEqual({ exitCode: 0, stdout: `No keys for ${user}.\n`, stderr: '' });
    expect(JSON.parse((await doppel('keys', 'list', '--user', user, '--json')).stdout)).toEqual({ user_id: user, keys: [] });
    expect(await doppel('keys', 'list', '--user', 'usr_nobody')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'doppel: no user with id usr_nobody\n',
    });
  });
});

describe('doppel keys revoke', () => {
  it('revokes by prefix, and a revoked key cannot be revoked again', async () => {
    const user = await newUser();
    const issued = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const run = await doppel('keys', 'revoke', issued.prefix);
    expect(run).toEqual({ exitCode: 0, stdout: `Revoked key ${issued.id} (prefix ${issued.prefix}).\n`, stderr: '' });
    expect((await keyRow(issued.id)).revoked_at).toBeInstanceOf(Date);

    const again = await doppel('keys', 'revoke', issued.prefix);
    expect(again).toEqual({ exitCode: 1, stdout: '', stderr: `doppel: no live key has the id or prefix '${issued.prefix}'\n` });
    const listed = JSON.parse((await doppel('keys', 'list', '--user', user, '--json')).stdout);
    expect(listed.keys[0].revoked_at).toMatch(/^\d{4}-/);
  });

  it('revokes by id, leaving the user’s other keys live, with --json output', async () => {
    const user = await newUser();
    const kept = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const gone = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const run = await doppel('keys', 'revoke', gone.id, '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ revoked: { id: gone.id, prefix: gone.prefix } });
    expect((await keyRow(gone.id)).revoked_at).not.toBeNull();
    expect((await keyRow(kept.id)).revoked_at).toBeNull();
  });

  it('refuses a prefix shared by several live keys and revokes none of them', async () => {
    const user = await newUser();
    const a = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    const b = JSON.parse((await doppel('keys', 'create', '--user', user, '--json')).stdout);
    // 48 random bits make a real collision unlikely; give both keys one prefix to get there.
    await t.db.updateTable('api_keys').set({ prefix: 'dpl_SAMESAME' }).where('id', 'in', [a.id, b.id]).execute();

    const run = await doppel('keys', 'revoke', 'dpl_SAMESAME');
    expect(run).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "doppel: 'dpl_SAMESAME' matches several live keys; nothing revoked, revoke by id (see 'doppel keys list')\n",
    });
    expect((await keyRow(a.id)).revoked_at).toBeNull();
    expect((await keyRow(b.id)).revoked_at).toBeNull();
  });
});
