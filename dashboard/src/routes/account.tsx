import { MIN_PASSWORD_LENGTH, type Session } from '@doppel/contract/dashboard';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api';
import { ErrorMessage, Field } from '../components/Field';
import { useSetSession } from '../session';

export function AccountPage({ session }: { session: Session }) {
  const setSession = useSetSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => ok(api.changePassword({ body: { current_password: current, new_password: next } })),
    onSuccess: (fresh) => {
      setSession(fresh);
      setCurrent('');
      setNext('');
      setConfirm('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(next !== confirm);
    if (next === confirm) change.mutate();
  };
  return (
    <>
      <h1>Account</h1>
      <section className="card facts" aria-label="Account">
        <dl>
          <div>
            <dt>Email</dt>
            <dd>{session.user.email}</dd>
          </div>
          <div>
            <dt>Tier</dt>
            <dd>
              <span className="badge badge-tier">{session.user.subscription_tier}</span>
            </dd>
          </div>
          <div>
            <dt>User id</dt>
            <dd className="mono">{session.user.id}</dd>
          </div>
        </dl>
      </section>
      <form className="card narrow" onSubmit={submit} aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <p className="hint">Every other signed-in browser is signed out.</p>
        <Field label="Current password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        <Field label="New password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} value={next} onChange={(e) => setNext(e.target.value)} />
        <Field label="Confirm new password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        {mismatch && (
          <p className="error" role="alert">
            The two passwords differ.
          </p>
        )}
        <ErrorMessage error={change.error} />
        {change.isSuccess && <p role="status">Password changed.</p>}
        <button type="submit" className="primary" disabled={change.isPending}>
          Change password
        </button>
      </form>
    </>
  );
}
