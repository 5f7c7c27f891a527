import type { Session } from '@doppel/contract/dashboard';
import { useMutation } from '@tanstack/react-query';
import { Link, Route, Switch, useRoute } from 'wouter';
import { api, ok } from './api';
import { ErrorMessage } from './components/Field';
import { AccountPage } from './routes/account';
import { FaceDetectPage } from './routes/face-detect';
import { InvitePage } from './routes/invite';
import { KeysPage } from './routes/keys';
import { OverviewPage } from './routes/overview';
import { SignInPage } from './routes/sign-in';
import { SwapPage } from './routes/swap';
import { SwapsPage } from './routes/swaps';
import { useSession, useSetSession } from './session';

const NAV = [
  ['/', 'Overview'],
  ['/keys', 'API keys'],
  ['/swaps', 'Swaps'],
  ['/face-detect', 'Face detection'],
  ['/account', 'Account'],
] as const;

export function App() {
  const [invite, params] = useRoute('/invite/:token');
  const session = useSession();
  if (invite) return <InvitePage token={params.token} />;
  if (session.error) return <ErrorMessage error={session.error} />;
  if (session.data === undefined) return <p aria-busy="true">Loading…</p>;
  if (session.data === null) return <SignInPage />;
  return <Shell session={session.data} />;
}

function NavLink({ href, label }: { href: string; label: string }) {
  const [exact] = useRoute(href);
  const [nested] = useRoute(`${href}/*`);
  const active = exact || (href !== '/' && nested);
  return (
    <Link href={href} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

function Shell({ session }: { session: Session }) {
  const setSession = useSetSession();
  const signOut = useMutation({ mutationFn: () => ok(api.signOut()), onSettled: () => setSession(null) });
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="logo" aria-label="Doppel dashboard home">
          <span className="logo-mark" aria-hidden="true" />
          Doppel
        </Link>
        <nav aria-label="Main" className="nav">
          {NAV.map(([href, label]) => (
            <NavLink key={href} href={href} label={label} />
          ))}
        </nav>
        <div className="user">
          <span className="muted small">{session.user.email}</span>
          <button type="button" onClick={() => signOut.mutate()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="content">
        <Switch>
          <Route path="/">
            <OverviewPage />
          </Route>
          <Route path="/keys">
            <KeysPage />
          </Route>
          <Route path="/swaps">
            <SwapsPage />
          </Route>
          <Route path="/swaps/:swapId">{(p) => <SwapPage swapId={p.swapId} />}</Route>
          <Route path="/face-detect">
            <FaceDetectPage />
          </Route>
          <Route path="/account">
            <AccountPage session={session} />
          </Route>
          <Route>
            <h1>Not found</h1>
            <p>
              <Link href="/">Back to the overview</Link>
            </p>
          </Route>
        </Switch>
      </main>
    </div>
  );
}
