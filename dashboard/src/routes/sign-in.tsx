import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api';
import { ErrorMessage, Field } from '../components/Field';
import { useSetSession } from '../session';

export function SignInPage() {
  const setSession = useSetSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({ mutationFn: () => ok(api.signIn({ body: { email, password } })), onSuccess: setSession });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <main className="auth">
      <form className="card auth-card" onSubmit={submit}>
        <p className="brand">Doppel</p>
        <h1>Sign in</h1>
        <Field label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorMessage error={signIn.error} />
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
        <p className="hint">No password yet, or forgot it? Ask your operator for a sign-in link.</p>
      </form>
    </main>
  );
}
