import { useMe } from '@/lib/auth/me.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { EmailSection } from '@/features/accounts/components/email-section.tsx';
import { PasswordSection } from '@/features/accounts/components/password-section.tsx';
import { SessionsSection } from '@/features/accounts/components/sessions-section.tsx';
import { DeleteAccountSection } from '@/features/accounts/components/delete-account-section.tsx';

/** Where a confirmation link lands: `?confirmed=1`, with `&error=…` when better-auth refused the token. */
function ConfirmationOutcome() {
  const [params] = useSearchParams();
  if (params.get('confirmed') !== '1') return null;
  return params.get('error') ? (
    <p role="alert" className="alert alert-error text-sm">
      That confirmation link is invalid or has expired. Send a new one below.
    </p>
  ) : (
    <p role="status" className="alert alert-success text-sm">
      Your e-mail is confirmed.
    </p>
  );
}

/** /settings: the account's own address, password, sessions, and its deletion (signed-in layout). */
export function SettingsPage() {
  const user = useMe().data?.user;
  if (!user) return null;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">Account settings</h1>
      <ConfirmationOutcome />
      <EmailSection user={user} />
      <PasswordSection />
      <SessionsSection />
      <DeleteAccountSection />
    </div>
  );
}
