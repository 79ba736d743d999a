import { useMe } from '../lib/auth/me.ts';
import { VerificationsPage } from '../features/admin/pages/verifications-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * /admin/verifications (inside the signed-in layout): to anyone but an operator the page is not there,
 * as its API is not (404). The server decides again on every request; this only spares the screen.
 */
export function OperatorVerificationsPage() {
  return useMe().data?.operator ? <VerificationsPage /> : <NotFoundPage />;
}
