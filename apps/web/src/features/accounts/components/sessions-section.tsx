import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { notify } from '@/components/notice.tsx';
import { useSessions, useSignOutOtherSessions } from '@/features/accounts/api/sessions.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Where the account is signed in, and a way to end every other session. */
export function SessionsSection() {
  const sessions = useSessions();
  const signOutOthers = useSignOutOtherSessions();
  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;
  return (
    <section aria-labelledby="sessions-heading" className="card bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <h2 id="sessions-heading" className="card-title">
          Where you are signed in
        </h2>
        {sessions.isPending ? (
          <Spinner label="Loading your sessions" />
        ) : sessions.isError ? (
          <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" data-testid="session-list">
            {sessions.data.sessions.map((s) => (
              <li key={s.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
                <span className="font-medium">
                  {s.device}
                  {s.current ? <span className="badge badge-primary badge-sm ml-2">This device</span> : null}
                </span>
                <span className="text-sm text-base-content/80">
                  {s.place ?? 'Unknown place'} · last seen {when(s.lastSeenAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <div>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={signOutOthers.isPending || others === 0}
            onClick={() =>
              signOutOthers.mutate(undefined, {
                onSuccess: ({ signedOut }) => notify({ kind: 'success', text: `Signed out ${signedOut} other session${signedOut === 1 ? '' : 's'}.` }),
                onError: () => notify({ kind: 'error', text: 'Could not sign out the other sessions. Please try again.' }),
              })
            }
          >
            Sign out everywhere else
          </button>
        </div>
      </div>
    </section>
  );
}
