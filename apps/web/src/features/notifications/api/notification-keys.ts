/** Query keys of the bell. */
export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread-count'] as const,
  list: ['notifications', 'list'] as const,
};

/**
 * The order lists (orders feature: the buyer's ['orders'], the seller's desk ['sales']), named here
 * rather than imported, since features do not reach into each other: a new notification means an
 * order changed, so an open cart or desk refreshes with the bell.
 */
export const orderListPrefixes = [['orders'], ['sales']] as const;
