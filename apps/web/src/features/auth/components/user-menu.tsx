import type { Me } from '@bulkcart/contracts/account';
import { useSignOut } from '@/features/auth/api/sign-out.ts';
import { useDisclosure } from '@/lib/use-disclosure.ts';
import { useMe } from '@/lib/auth/me.ts';
import { Link } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';

const DEFAULT_AVATAR = '/images/default-avatar.svg';

/** Round avatar (photo or default picture) opening a dropdown with name, email and Logout. */
export function UserMenu({ user }: { user: Me }) {
  const signOut = useSignOut();
  const menu = useDisclosure();
  const me = useMe().data;
  const verified = me?.verification.status === 'verified';
  return (
    <div {...menu.rootProps} className={menu.isOpen ? 'dropdown dropdown-end dropdown-open' : 'dropdown dropdown-end'}>
      <button {...menu.buttonProps} className="btn btn-ghost btn-circle avatar" aria-label="Account menu">
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
      {menu.isOpen ? (
        // A link chosen in the menu closes it.
        <div
          {...menu.panelProps}
          className="dropdown-content menu z-50 mt-3 w-64 rounded-box bg-base-100 p-4 shadow-lg"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) menu.close();
          }}
        >
          <p className="font-semibold break-words" data-testid="user-display-name">
            {user.displayName}
          </p>
          <p className="text-sm opacity-80 break-all" data-testid="user-email">
            {user.email}
          </p>
          {verified ? (
            <p className="mt-2">
              <span className="badge badge-success badge-sm gap-1 font-semibold" data-testid="verified-badge">
                <span aria-hidden="true">✓</span> Verified business
              </span>
            </p>
          ) : null}
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            <li>
              <Link to={paths.quickOrder} className="link link-hover">
                Quick order
              </Link>
            </li>
            <li>
              <Link to={paths.lists} className="link link-hover">
                Order lists
              </Link>
            </li>
            <li>
              <Link to={paths.business} className="link link-hover">
                Business profile
              </Link>
            </li>
            <li>
              <Link to={paths.sellerSettings} className="link link-hover">
                Seller settings
              </Link>
            </li>
            <li>
              <Link to={paths.settings} className="link link-hover">
                Account settings
              </Link>
            </li>
            {me?.operator ? (
              <li>
                <Link to={paths.adminVerifications} className="link link-hover">
                  Verification queue
                </Link>
              </li>
            ) : null}
            {me?.operator ? (
              <li>
                <Link to={paths.adminAudit} className="link link-hover">
                  Audit trail
                </Link>
              </li>
            ) : null}
          </ul>
          <button type="button" className="btn btn-primary btn-sm mt-3" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Logout
          </button>
        </div>
      ) : null}
    </div>
  );
}
