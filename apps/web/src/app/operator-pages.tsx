import { useMe } from '@/lib/auth/me.ts';
import { AuditPage } from '@/features/admin/pages/audit-page.tsx';
import { VerificationsPage } from '@/features/admin/pages/verifications-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * /admin/verifications and /admin/audit (inside the signed-in layout): to anyone but an operator the
 * pages are not there, as their API is not (404). The server decides again on every request; this only
 * spares the screen.
 */
export function OperatorVerificationsPage() {
  return useMe().data?.operator ? <VerificationsPage /> : <NotFoundPage />;
}

export function OperatorAuditPage() {
  return useMe().data?.operator ? <AuditPage /> : <NotFoundPage />;
}
