import type { ReactNode } from 'react';
import type { AuditEntry } from '@bulkcart/contracts/business';
import { paths } from '@bulkcart/contracts/routes';
import { LoadError } from '@/components/load-error.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { useAuditTrail } from '@/features/admin/api/audit.ts';
import { OperatorPageHeading } from '@/features/admin/components/operator-page-heading.tsx';

const ACTION_LABEL: Record<AuditEntry['action'], string> = { approve: 'Approved', reject: 'Rejected' };

/**
 * /admin/audit (operators, app/operator-pages.tsx): every decision, newest first: who decided what,
 * when, on which revision of the submission. Read-only, as the trail is. A table on desktop; on a
 * phone each decision is a block of labelled lines, so nothing runs off the screen.
 */
export function AuditPage() {
  const trail = useAuditTrail();
  let content;
  if (trail.isPending) content = <Spinner label="Loading the audit trail" />;
  else if (!trail.data) content = <LoadError error={trail.error} onRetry={() => void trail.refetch()} />;
  else {
    const entries = trail.data.pages.flatMap((page) => page.items);
    content =
      entries.length === 0 ? (
        <p className="rounded-box bg-base-100 p-6 text-center ring-1 ring-base-300">No decisions yet.</p>
      ) : (
        <>
          <table className="table w-full rounded-box bg-base-100 text-sm ring-1 ring-base-300 max-md:block" aria-label="Decisions, newest first">
            <thead className="max-md:sr-only">
              <tr>
                <th scope="col">When</th>
                <th scope="col">Operator</th>
                <th scope="col">Decision</th>
                <th scope="col">Account</th>
                <th scope="col">Reason</th>
                <th scope="col">Revision</th>
              </tr>
            </thead>
            <tbody className="max-md:block">
              {entries.map((entry) => (
                <AuditRow key={entry._id} entry={entry} />
              ))}
            </tbody>
          </table>
          <PagedListEnd query={trail} />
        </>
      );
  }
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4">
      <OperatorPageHeading title="Audit trail" link={{ to: paths.adminVerifications, label: 'Verification queue' }} />
      <p className="text-sm">Every approval and rejection, newest first. The trail cannot be changed.</p>
      {content}
    </div>
  );
}

/** On a phone the cells stack, each after its column's name (the header row is then for screen readers only). */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td className="align-top break-words max-md:flex max-md:gap-2 max-md:border-0 max-md:px-4 max-md:py-0.5">
      <span className="font-semibold md:hidden">{label}:</span>
      <span className="min-w-0">{children}</span>
    </td>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr className="max-md:block max-md:border-b max-md:border-base-300 max-md:py-2" data-testid="audit-entry">
      <Cell label="When">
        <time dateTime={entry.at}>{new Date(entry.at).toLocaleString('en-US')}</time>
      </Cell>
      <Cell label="Operator">{entry.actorEmail}</Cell>
      <Cell label="Decision">
        <span className={`badge badge-sm ${entry.action === 'approve' ? 'badge-success' : 'badge-error'}`}>{ACTION_LABEL[entry.action]}</span>
      </Cell>
      <Cell label="Account">{entry.subjectEmail}</Cell>
      <Cell label="Reason">{entry.reason ?? '—'}</Cell>
      <Cell label="Revision">{entry.revision ? <code title={entry.revision}>{entry.revision.slice(0, 8)}</code> : 'before revisions'}</Cell>
    </tr>
  );
}
