import type { Me } from '@bulkcart/contracts/account';
import { useSignOut } from '../api/sign-out.ts';
import { useEscapeClosesDropdown } from '../../../lib/use-escape-closes-dropdown.ts';
import { useMe } from '../../../lib/auth/me.ts';
import { Link } from '../../../lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';

const DEFAULT_AVATAR = '/images/default-avatar.svg';

/** The menu's links for every signed-in user: buying tools, then the business and selling settings. */
const ACCOUNT_LINKS: ReadonlyArray<readonly [string, string]> = [
  [paths.quickOrder, 'Quick order'],
  [paths.lists, 'Order lists'],
  [paths.business, 'Business profile'],
  [paths.sellerSettings, 'Seller settings'],
];

/** Round avatar (photo or default picture) opening a dropdown with name, email and Logout. */
export function UserMenu({ user }: { user: Me }) {
  const signOut = useSignOut();
  const dropdown = useEscapeClosesDropdown('dropdown dropdown-end');
  const me = useMe().data;
  const verified = me?.verification.status === 'verified';
  return (
    <div {...dropdown}>
      <button type="button" tabIndex={0} className="btn btn-ghost btn-circle avatar" aria-label="Account menu">
        <span className="block h-10 w-10 overflow-hidden rounded-full ring-2 ring-primary/30 ring-offset-1">
          <img
            className="h-full w-full rounded-full object-cover"
            src={user.photoURL || DEFAULT_AVATAR}
            alt={user.displayName}
            width={40}
            height={40}
            referrerPolicy="no-referrer"
            onError={(e) => {
              if (!e.currentTarget.src.endsWith(DEFAULT_AVATAR)) e.currentTarget.src = DEFAULT_AVATAR;
            }}
          />
        </span>
      </button>
      <div tabIndex={0} className="dropdown-content menu z-50 mt-3 w-64 rounded-box bg-base-100 p-4 shadow-lg">
        <p className="font-semibold break-words" data-testid="user-display-name">{user.displayName}</p>
        <p className="text-sm opacity-80 break-all" data-testid="user-email">{user.email}</p>
        {verified ? (
          <p className="mt-2">
            <span className="badge badge-success badge-sm gap-1 font-semibold" data-testid="verified-badge">
              <span aria-hidden="true">✓</span> Verified business
            </span>
          </p>
        ) : null}
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          {ACCOUNT_LINKS.map(([to, label]) => (
            <li key={to}>
              <Link to={to} className="link link-hover">
                {label}
              </Link>
            </li>
          ))}
          {me?.operator ? (
            <li>
              <Link to={paths.adminVerifications} className="link link-hover">
                Verification queue
              </Link>
            </li>
          ) : null}
        </ul>
        <button type="button" className="btn btn-primary btn-sm mt-3" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Logout
        </button>
      </div>
    </div>
  );
}
