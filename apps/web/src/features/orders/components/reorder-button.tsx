import { useState } from 'react';
import type { CartAddAnswer } from '@bulkcart/contracts/cart';
import type { Order } from '@bulkcart/contracts/order';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { useReorder } from '@/features/orders/api/lists.ts';
import { AddResultsList } from './add-results.tsx';
import { Spinner } from '@/components/spinner.tsx';

/** Reorder: the order's lines go into the cart at today's prices; each line says how it went. */
export function ReorderButton({ order, className = 'btn btn-ghost btn-sm' }: { order: Pick<Order, '_id' | 'number' | 'lines'>; className?: string }) {
  const reorder = useReorder();
  const [answer, setAnswer] = useState<CartAddAnswer | null>(null);

  function start() {
    reorder.mutate(order._id, {
      onSuccess: setAnswer,
      onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
    });
  }

  return (
    <>
      <button type="button" className={className} onClick={start} disabled={reorder.isPending} aria-label={`Reorder ${order.number}`} aria-haspopup="dialog">
        {reorder.isPending ? <Spinner inline size="xs" /> : null}
        Reorder
      </button>
      <Modal
        open={answer !== null}
        onClose={() => setAnswer(null)}
        title={`Reorder ${order.number}`}
        actions={
          <Link to={paths.cart} className="btn btn-primary" onClick={() => setAnswer(null)}>
            Go to cart
          </Link>
        }
      >
        {answer ? <AddResultsList results={answer.results} label={(r) => order.lines[r.row - 1]?.product.name ?? `Line ${r.row}`} /> : null}
      </Modal>
    </>
  );
}
