import { useLocation } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';

/** What a guard puts in navigation state when it sends a visitor to /login. */
export interface FromState {
  from?: string;
}

/** Only a path on this site: `//evil.example` or a full URL must never become a redirect target. */
export function toSafeReturnPath(from: unknown): string {
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') ? from : paths.home;
}

/** Where a sign-in should return to: the page carried in navigation state, or home. */
export function useReturnPath(): string {
  const location = useLocation();
  return toSafeReturnPath((location.state as FromState | null)?.from);
}
