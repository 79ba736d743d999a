import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { ResendConfirmationButton } from '@/components/resend-confirmation-button.tsx';

/** For a signed-in account whose address is not confirmed yet (root-layout.tsx), on every page. */
export function ConfirmEmailBanner({ email }: { email: string }) {
  return (
    <div
      role="region"
      aria-label="Confirm your e-mail"
      className="alert alert-warning mb-4 flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
      data-testid="confirm-email-banner"
    >
      <p>
        <strong>Confirm your e-mail.</strong> Open the link we sent to <span className="break-all">{email}</span> to submit your business for verification and
        keep your account recoverable.{' '}
        <Link to={paths.settings} className="link">
          Account settings
        </Link>
      </p>
      <ResendConfirmationButton email={email} />
    </div>
  );
}
