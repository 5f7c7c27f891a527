import type { DashboardKey } from '@doppel/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage, Field } from '../components/Field';
import { formatTime } from '../format';
import { TableWrap } from '../components/TableWrap';

export function KeysPage() {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => ok(api.listKeys()) });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ key: DashboardKey; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<DashboardKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['keys'] });
  const create = useMutation({
    mutationFn: () => ok(api.createKey({ body: { name: name.trim() || undefined } })),
    onSuccess: (result) => {
      setCreated(result);
      setName('');
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (key: DashboardKey) => ok(api.revokeKey({ params: { keyId: key.id } })),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h1>API keys</h1>
      <form className="card inline-form" onSubmit={submit}>
        <Field label="Name (optional)" value={name} maxLength={100} placeholder="e.g. production" onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
        <ErrorMessage error={create.error} />
      </form>

      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        <ErrorMessage error={keys.error} />
        {keys.data && keys.data.data.length === 0 && <p className="empty">No keys yet.</p>}
        {keys.data && keys.data.data.length > 0 && (
          <TableWrap label="API keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((key) => (
                  <tr key={key.id} className={key.revoked_at ? 'revoked' : undefined}>
                    <td>{key.name ?? <span className="muted">Unnamed</span>}</td>
                    <td className="mono">{key.prefix}…</td>
                    <td>{formatTime(key.created_at)}</td>
                    <td>{formatTime(key.last_used_at)}</td>
                    <td className="actions">
                      {key.revoked_at ? (
                        <span className="badge badge-canceled">revoked</span>
                      ) : (
                        <button type="button" className="danger" onClick={() => setRevoking(key)}>
                          Revoke<span className="visually-hidden"> {key.name ?? key.prefix}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      <Dialog open={created !== null} title="Your new API key" onClose={() => setCreated(null)}>
        {created && <KeyCreated secret={created.secret} onDone={() => setCreated(null)} />}
      </Dialog>

      <Dialog open={revoking !== null} title="Revoke this key?" onClose={() => setRevoking(null)}>
        {revoking && (
          <>
            <p>
              Requests with <span className="mono">{revoking.prefix}…</span> ({revoking.name ?? 'unnamed'}) will be refused at once. This cannot be
              undone.
            </p>
            <ErrorMessage error={revoke.error} />
            <div className="dialog-actions">
              <button type="button" onClick={() => setRevoking(null)}>
                Cancel
              </button>
              <button type="button" className="danger" onClick={() => revoke.mutate(revoking)} disabled={revoke.isPending}>
                Revoke key
              </button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}

function KeyCreated({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <>
      <p className="warning" role="note">
        Copy it now: it will not be shown again. Keep it secret; anyone with it can spend your credits.
      </p>
      <div className="secret">
        <code data-testid="new-key">{secret}</code>
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}
