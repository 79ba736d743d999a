import { paths } from '@bulkcart/contracts/routes';
import { FilterTabs } from '@/components/filter-tabs.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { useSearchParams } from '@/lib/router.tsx';
import { LISTED_STATUSES, useVerifications, type ListedStatus } from '@/features/admin/api/verifications.ts';
import { OperatorPageHeading } from '@/features/admin/components/operator-page-heading.tsx';
import { VerificationCard } from '@/features/admin/components/verification-card.tsx';

const TAB_LABEL: Record<ListedStatus, string> = { pending: 'Pending', verified: 'Verified', rejected: 'Rejected' };
const EMPTY: Record<ListedStatus, string> = {
  pending: 'Nothing is waiting for review.',
  verified: 'No verified businesses yet.',
  rejected: 'No rejected submissions.',
};

function statusOf(value: string | null): ListedStatus {
  return LISTED_STATUSES.find((status) => status === value) ?? 'pending';
}

/**
 * /admin/verifications (operators, app/operator-pages.tsx; docs/decisions/014): the pending queue, and
 * beside it the submissions already reviewed, one status a tab (`?status=` in the URL), oldest first.
 */
export function VerificationsPage() {
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const list = useVerifications(status);
  let content;
  if (list.isPending) content = <Spinner label="Loading the queue" />;
  else if (!list.data) content = <LoadError error={list.error} onRetry={() => void list.refetch()} />;
  else {
    const items = list.data.pages.flatMap((page) => page.items);
    content = (
      <>
        {items.length === 0 ? <p className="rounded-box bg-base-100 p-6 text-center ring-1 ring-base-300">{EMPTY[status]}</p> : null}
        {items.map((verification) => (
          <VerificationCard key={verification._id} verification={verification} />
        ))}
        <PagedListEnd query={list} />
      </>
    );
  }
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <OperatorPageHeading title="Verification queue" link={{ to: paths.adminAudit, label: 'Audit trail' }} />
      <FilterTabs
        label="Show submissions"
        idPrefix="verifications-tab"
        tabs={LISTED_STATUSES.map((s) => ({ key: s, label: TAB_LABEL[s], isCurrent: s === status }))}
        onChoose={(key) => setParams(key === 'pending' ? {} : { status: key }, { replace: true })}
      />
      {content}
    </div>
  );
}
