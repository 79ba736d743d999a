import { formatMoney } from '@bulkcart/contracts/money';
import { nudgeText, VERIFY_TEXT } from '@bulkcart/contracts/verification';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';

interface VerifyNudgeProps {
  /** The best volume break: its threshold and what one unit costs there (discount applied). */
  quantity: number;
  unitCents: number;
  className?: string;
  /** The "Verify your business" link; cards leave it out (one per card would be noise; the banner links). */
  withLink?: boolean;
}

/** "Verified businesses pay $8.10 at 500+. Verify your business": what verifying would save. */
export function VerifyNudge({ quantity, unitCents, className = 'text-sm', withLink = true }: VerifyNudgeProps) {
  return (
    <span className={`block ${className}`} data-testid="verify-nudge">
      {nudgeText(formatMoney(unitCents), quantity)}
      {withLink ? (
        <>
          {' '}
          <Link to={paths.business} className="link link-primary font-semibold">
            {VERIFY_TEXT.nudgeLink}
          </Link>
        </>
      ) : null}
    </span>
  );
}
