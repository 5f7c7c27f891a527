import { MIN_PASSWORD_LENGTH } from '@doppel/contract/dashboard';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, ok } from '../api';
import { ErrorMessage, Field } from '../components/Field';
import { useSetSession } from '../session';

export function InvitePage({ token }: { token: string }) {
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const accept = useMutation({
    mutationFn: () => ok(api.acceptInvite({ params: { token }, body: { password } })),
    onSuccess: (session) => {
      setSession(session);
      navigate('/', { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== confirm);
    if (password === confirm) accept.mutate();
  };
  return (
    <main className="auth">
      <form className="card auth-card" onSubmit={submit}>
        <p className="brand">Doppel</p>
        <h1>Set your password</h1>
        <p className="hint">At least {MIN_PASSWORD_LENGTH} characters. This link works once.</p>
        <Field label="Password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field label="Confirm password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        {mismatch && (
          <p className="error" role="alert">
            The two passwords differ.
          </p>
        )}
        <ErrorMessage error={accept.error} />
        <button type="submit" className="primary" disabled={accept.isPending}>
          Set password
        </button>
      </form>
    </main>
  );
}
