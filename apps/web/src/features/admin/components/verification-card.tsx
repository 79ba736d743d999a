import { useId, useState } from 'react';
import { BUSINESS_TYPE_LABELS, type Verification } from '@bulkcart/contracts/business';
import { notify } from '@/components/notice.tsx';
import { useDecide } from '@/features/admin/api/verifications.ts';
import { DocumentPreview } from './document-preview.tsx';

/**
 * One verification: the profile, the document on demand, other accounts with the same permit number;
 * while pending, approve or reject with a reason; once reviewed, when and (rejected) why.
 */
export function VerificationCard({ verification }: { verification: Verification }) {
  const id = useId();
  const [previewing, setPreviewing] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const decide = useDecide();
  const p = verification.profile;
  const isPending = verification.status === 'pending';

  function run(decision: Parameters<typeof decide.mutate>[0], done: string) {
    setProblem(null);
    decide.mutate(decision, {
      onSuccess: () => notify({ kind: 'success', title: done, text: `${p?.legalName ?? verification.email}` }),
      onError: (error) => setProblem(error.message),
    });
  }

  return (
    <article
      className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300"
      data-testid="verification"
      aria-label={p?.legalName ?? verification.email}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-bold break-words">{p?.legalName}</h2>
        <span className="text-xs text-base-content/70">
          Submitted {verification.submittedAt ? new Date(verification.submittedAt).toLocaleString('en-US') : ''}
          {verification.reviewedAt ? ` · Reviewed ${new Date(verification.reviewedAt).toLocaleString('en-US')}` : ''}
        </span>
      </header>
      {verification.samePermit.accounts.length > 0 ? <SamePermitFlag samePermit={verification.samePermit} /> : null}
      {p ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-base-content/70">Account</dt>
          <dd className="break-all">{verification.email}</dd>
          <dt className="text-base-content/70">Type</dt>
          <dd>{BUSINESS_TYPE_LABELS[p.businessType]}</dd>
          <dt className="text-base-content/70">Permit</dt>
          <dd className="break-words">
            {p.permitNumber} · {p.permitRegion} · expires {p.permitExpires}
          </dd>
          <dt className="text-base-content/70">Address</dt>
          <dd className="break-words">
            {[p.address.company, p.address.line1, p.address.line2, `${p.address.city}, ${p.address.region} ${p.address.postalCode}`, p.address.country]
              .filter(Boolean)
              .join(', ')}
          </dd>
        </dl>
      ) : null}
      {verification.document ? (
        previewing ? (
          // Keyed by revision: a document replaced since it was opened is fetched again, never shown stale.
          <DocumentPreview key={verification.revision} id={verification._id} name={verification.document.name} type={verification.document.type} />
        ) : (
          <button type="button" className="btn btn-outline btn-sm self-start" onClick={() => setPreviewing(true)}>
            Show document ({verification.document.name})
          </button>
        )
      ) : null}
      {!isPending ? (
        <p className="text-sm" data-testid="review-outcome">
          <span className={`badge ${verification.status === 'verified' ? 'badge-success' : 'badge-error'} mr-2`}>{STATUS_LABEL[verification.status]}</span>
          {verification.reason ? `Reason: ${verification.reason}` : null}
        </p>
      ) : rejecting ? (
        <form
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) {
              setProblem('Give the buyer a reason.');
              return;
            }
            run({ id: verification._id, revision: verification.revision, action: 'reject', reason }, 'Rejected');
          }}
        >
          <label htmlFor={`${id}-reason`} className="text-sm font-medium">
            Reason (shown to the buyer)
          </label>
          <textarea
            id={`${id}-reason`}
            className="textarea w-full border border-base-content/25"
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-error btn-sm" disabled={decide.isPending}>
              Reject
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-success btn-sm"
            disabled={decide.isPending}
            onClick={() => run({ id: verification._id, revision: verification.revision, action: 'approve' }, 'Approved')}
          >
            Approve
          </button>
          <button type="button" className="btn btn-outline btn-error btn-sm" disabled={decide.isPending} onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      )}
      {problem ? (
        <p role="alert" className="text-sm text-error">
          {problem}
        </p>
      ) : null}
    </article>
  );
}

const STATUS_LABEL: Record<Verification['status'], string> = {
  none: 'Not submitted',
  pending: 'Pending',
  verified: 'Verified',
  rejected: 'Rejected',
  expired: 'Expired',
};

/** The other accounts that submitted this permit number: a reason to look twice, not a verdict. */
function SamePermitFlag({ samePermit }: { samePermit: Verification['samePermit'] }) {
  const count = samePermit.accounts.length;
  return (
    <div className="rounded-box border border-warning bg-warning/10 p-3 text-sm" data-testid="same-permit">
      <p className="font-semibold">
        Same permit number as {samePermit.more ? `more than ${count}` : count} other {count === 1 && !samePermit.more ? 'account' : 'accounts'}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {samePermit.accounts.map((account) => (
          <li key={account.email} className="break-words">
            {account.legalName} ({account.email}) · {account.permitRegion} · {STATUS_LABEL[account.status]}
          </li>
        ))}
      </ul>
    </div>
  );
}
