import type { BusinessProfile } from '@bulkcart/contracts/business';

const TEXT: Record<BusinessProfile['status'], { badge: string; className: string; text: string }> = {
  none: {
    badge: 'Not verified',
    className: 'badge-ghost',
    text: 'Save your business details and upload your permit or license to get wholesale volume prices.',
  },
  pending: {
    badge: 'Pending review',
    className: 'badge-warning',
    text: 'An operator is reviewing your permit. Volume prices apply as soon as it is approved.',
  },
  verified: { badge: 'Verified business', className: 'badge-success', text: 'Volume prices apply to your orders.' },
  rejected: { badge: 'Rejected', className: 'badge-error', text: 'Fix what the reviewer asked for and upload the permit again.' },
  expired: {
    badge: 'Expired',
    className: 'badge-neutral',
    text: 'Your permit has expired. Enter the renewed permit and upload it to get volume prices again.',
  },
};

export function StatusCard({ profile }: { profile: BusinessProfile }) {
  const shown = TEXT[profile.status];
  return (
    <section aria-labelledby="verification-status" className="flex flex-col gap-2 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
      <h2 id="verification-status" className="flex flex-wrap items-center gap-2 text-lg font-bold">
        Verification status
        <span className={`badge ${shown.className} font-semibold`} data-testid="verification-status">
          {shown.badge}
        </span>
      </h2>
      <p className="text-sm text-base-content/80">{shown.text}</p>
      {profile.status === 'rejected' && profile.reason ? (
        <p className="rounded-box bg-error/10 p-3 text-sm break-words" data-testid="rejection-reason">
          <span className="font-semibold">Reviewer&apos;s reason: </span>
          {profile.reason}
        </p>
      ) : null}
    </section>
  );
}
