import { useState } from 'react';
import { paths } from '@bulkcart/contracts/routes';
import { VERIFY_TEXT } from '@bulkcart/contracts/verification';
import { Link } from '@/lib/router.tsx';

/** Loaded only for a signed-in user the breaks do not apply to, who has not dismissed it (root-layout.tsx). */
export function VerifyBanner({ dismissedKey }: { dismissedKey: string }) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  return (
    <div
      role="region"
      aria-label="Business verification"
      className="alert alert-info mb-4 flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
      data-testid="verify-banner"
    >
      <span>
        {VERIFY_TEXT.banner}{' '}
        <Link to={paths.business} className="link font-semibold">
          {VERIFY_TEXT.nudgeLink}
        </Link>
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        aria-label="Dismiss"
        onClick={() => {
          setShown(false);
          try {
            localStorage.setItem(dismissedKey, '1');
          } catch {
            // Storage refused (private mode): dismissed for this visit only.
          }
        }}
      >
        ✕
      </button>
    </div>
  );
}
