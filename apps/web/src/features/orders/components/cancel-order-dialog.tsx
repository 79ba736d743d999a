import type { Order } from '@bulkcart/contracts/order';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { unitsText } from '@bulkcart/contracts/quantity';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { notify } from '@/components/notice.tsx';
import { useCancelOrder } from '@/features/orders/api/cancel-order.ts';

/**
 * Cancelling a bulk order cannot be undone, so it asks first (one tap used to drop it). The stock goes
 * back to the seller; a seller who accepted meanwhile makes the server answer 409, shown as is.
 */
export function CancelOrderDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const cancel = useCancelOrder({
    onSuccess: () => notify({ kind: 'success', text: MESSAGES.orderCanceled, durationMs: 1000 }),
    onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
  });
  return (
    <ConfirmDialog
      open
      title={`Cancel order ${order.number}?`}
      confirmLabel="Cancel order"
      cancelLabel="Keep order"
      isPending={cancel.isPending}
      onConfirm={() => cancel.mutate(order._id, { onSettled: onClose })}
      onCancel={onClose}
    >
      <p className="break-words">
        {unitsText(order.quantity)} of <strong>{order.product.name}</strong> ({formatMoney(toCents(order.total))}). The seller is told and the order cannot be
        restored.
      </p>
    </ConfirmDialog>
  );
}
