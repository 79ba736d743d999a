import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@bulkcart/contracts/notification';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { useDisclosure } from '@/lib/use-disclosure.ts';
import { useNotifications } from '@/features/notifications/api/get-notifications.ts';
import { useUnreadCount } from '@/features/notifications/api/get-unread-count.ts';
import { useMarkAllRead, useMarkRead } from '@/features/notifications/api/mark-read.ts';
import { orderListPrefixes } from '@/features/notifications/api/notification-keys.ts';
import { Spinner } from '@/components/spinner.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';

/**
 * The navbar's bell (signed in only, loaded lazily: decision 013). It brings TanStack's provider, as
 * the buy button does, since the frame renders without it.
 */
export function NotificationBell() {
  return (
    <QueryProvider>
      <Bell />
    </QueryProvider>
  );
}

/** A badge shows up to 99; more reads 99+. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

function Bell() {
  const bell = useDisclosure();
  const unread = useUnreadCount();
  const count = unread.data?.count ?? 0;
  useRefreshOrdersWhenCountRises(count);

  return (
    <div {...bell.rootProps} className="relative">
      <button
        {...bell.buttonProps}
        className="btn btn-ghost btn-circle"
        aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
        data-testid="notification-bell"
      >
        <span className="indicator">
          <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              strokeWidth="2"
              d="M15 17h5l-1.4-1.4A2 2 0 0118 14.2V11a6 6 0 10-12 0v3.2a2 2 0 01-.6 1.4L4 17h5m6 0a3 3 0 11-6 0"
            />
          </svg>
          {count > 0 ? (
            <span className="indicator-item badge badge-error badge-sm" data-testid="notification-count">
              {badgeText(count)}
            </span>
          ) : null}
        </span>
      </button>
      {bell.isOpen ? <Panel id={bell.panelProps.id} onNavigate={() => bell.close()} /> : null}
    </div>
  );
}

/** A rise in unread notifications means an order changed: the cart and the desk, if open, ask again. */
function useRefreshOrdersWhenCountRises(count: number) {
  const queryClient = useQueryClient();
  const previous = useRef(count);
  useEffect(() => {
    if (count > previous.current) for (const queryKey of orderListPrefixes) void queryClient.invalidateQueries({ queryKey });
    previous.current = count;
  }, [count, queryClient]);
}

function Panel({ id, onNavigate }: { id: string; onNavigate: () => void }) {
  const list = useNotifications(true);
  const markAll = useMarkAllRead();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const hasUnread = items.some((n) => !n.read);

  let body;
  if (list.isPending) {
    body = (
      <p className="flex items-center gap-2 p-4 text-sm" role="status">
        <Spinner inline /> Loading notifications
      </p>
    );
  } else if (list.isError && items.length === 0) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-2 p-4 text-sm">
        <span>Could not load notifications: {list.error.message}</span>
        <button type="button" className="btn btn-xs" onClick={() => void list.refetch()}>
          Retry
        </button>
      </div>
    );
  } else if (items.length === 0) {
    body = <p className="p-4 text-sm text-base-content/70">No notifications yet.</p>;
  } else {
    body = (
      <>
        <ul className="flex flex-col divide-y divide-base-200" aria-label="Notifications">
          {items.map((n) => (
            <NotificationItem key={n._id} notification={n} onNavigate={onNavigate} />
          ))}
        </ul>
        <PagedListEnd query={list} isCompact />
      </>
    );
  }

  return (
    <div
      id={id}
      className="fixed top-16 right-2 left-2 z-50 flex max-h-[70vh] flex-col overflow-hidden rounded-box bg-base-100 shadow-lg ring-1 ring-base-300 sm:absolute sm:top-full sm:left-auto sm:mt-2 sm:w-96"
      data-testid="notification-panel"
    >
      <div className="flex items-center justify-between gap-2 border-b border-base-200 px-4 py-2">
        <h2 className="font-semibold">Notifications</h2>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => markAll.mutate()} disabled={!hasUnread || markAll.isPending}>
          Mark all read
        </button>
      </div>
      <div className="overflow-y-auto">{body}</div>
    </div>
  );
}

/** Where a notice leads: its order, the cart for a checkout (several orders), the profile for a permit notice. */
function notificationTarget(n: Notification): string {
  if (n.orderId !== null) return paths.order(n.orderId);
  return n.kind === 'checkout' ? paths.cart : paths.business;
}

function NotificationItem({ notification: n, onNavigate }: { notification: Notification; onNavigate: () => void }) {
  const markRead = useMarkRead();
  return (
    <li className={`flex items-start gap-2 px-4 py-3 ${n.read ? '' : 'bg-primary/5'}`} data-testid="notification" data-read={n.read}>
      <span className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${n.read ? 'bg-transparent' : 'bg-primary'}`} aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <Link
          to={notificationTarget(n)}
          className="font-semibold break-words hover:underline"
          onClick={() => {
            if (!n.read) markRead.mutate(n._id);
            onNavigate();
          }}
        >
          {n.title}
        </Link>
        <p className="break-words text-base-content/80">{n.message}</p>
        <time dateTime={n.createdAt} className="text-xs text-base-content/60">
          {new Date(n.createdAt).toLocaleString()}
          {n.read ? null : <span className="sr-only"> (unread)</span>}
        </time>
      </div>
      {n.read ? null : (
        <button type="button" className="btn btn-ghost btn-xs shrink-0" onClick={() => markRead.mutate(n._id)} disabled={markRead.isPending}>
          {/* The name starts with the words on the button (speech input users say what they see), then says which. */}
          Mark read<span className="sr-only">: {n.orderNumber ?? n.title}</span>
        </button>
      )}
    </li>
  );
}
