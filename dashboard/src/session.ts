import type { Session } from '@doppel/contract/dashboard';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, RequestFailed, setCsrfToken } from './api';

const SESSION_KEY = ['session'] as const;

/** The signed-in session, or null when there is none (the sign-in page shows). */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await ok(api.getSession());
        setCsrfToken(session.csrf_token);
        return session;
      } catch (error) {
        if (error instanceof RequestFailed && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** Makes a session (signed in, password set or changed) the current one; null signs out. */
export function useSetSession() {
  const client = useQueryClient();
  return (session: Session | null) => {
    setCsrfToken(session?.csrf_token ?? '');
    client.setQueryData(SESSION_KEY, session);
    // Nothing of the previous user stays in the cache.
    if (session === null) client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  };
}
