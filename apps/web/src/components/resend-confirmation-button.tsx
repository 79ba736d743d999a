import { useState } from 'react';
import { ApiError } from '@/lib/api-client.ts';
import { resendConfirmation } from '@/lib/auth/confirm-email.ts';
import { Spinner } from './spinner.tsx';

type State = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

/** "Resend the link", with what happened said beside it (sent, or why not: too many, offline). */
export function ResendConfirmationButton({ email }: { email: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const send = async () => {
    setState({ kind: 'sending' });
    try {
      await resendConfirmation();
      setState({ kind: 'sent' });
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof ApiError ? error.message : 'Could not send it. Check your connection and try again.' });
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className="btn btn-sm btn-outline" onClick={send} disabled={state.kind === 'sending'}>
        {state.kind === 'sending' ? <Spinner inline size="xs" /> : null}
        Resend the link
      </button>
      <span role="status" className="text-sm">
        {state.kind === 'sent' ? `A new link is on its way to ${email}.` : state.kind === 'failed' ? state.message : ''}
      </span>
    </span>
  );
}
