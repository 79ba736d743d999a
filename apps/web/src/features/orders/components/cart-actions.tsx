import { useState } from 'react';
import { isBelowMoq } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { useLocation, useNavigate } from '@/lib/router.tsx';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { loadMe, useMe } from '@/lib/auth/me.ts';
import { notify } from '@/components/notice.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';
import type { CartActionProps } from '@/components/cart-actions-slot.tsx';
import { useAddCartLines } from '@/features/orders/api/cart.ts';
import { AddToListDialog } from './add-to-list-dialog.tsx';
import { Spinner } from '@/components/spinner.tsx';

/**
 * Add to cart / Add to list beside Buy Now (docs/decisions/017-cart-and-checkout.md), with the same
 * quantity rules: the chosen quantity, or the MOQ. Loaded only where a page shows them, with TanStack's
 * provider (the home page's cards run without it). Nothing to buy, or one's own product: no button.
 */
export function CartActions(props: CartActionProps) {
  return (
    <QueryProvider>
      <CartActionButton {...props} />
    </QueryProvider>
  );
}

function CartActionButton({ product, quantity, action, className = 'btn btn-outline btn-sm' }: CartActionProps) {
  const me = useMe().data?.user;
  const navigate = useNavigate();
  const location = useLocation();
  const add = useAddCartLines();
  const [listOpen, setListOpen] = useState(false);
  const units = quantity ?? product.minquantity;

  if (product.price === null || isBelowMoq(product) || (me && me.email.toLowerCase() === product.useremail.toLowerCase())) return null;

  function signedIn(then: () => void) {
    void loadMe().then((answer) => {
      if (answer?.user) then();
      else navigate(paths.login, { state: { from: `${location.pathname}${location.search}` } });
    });
  }

  function addToCart() {
    add.mutate(
      { lines: [{ productId: product._id, quantity: units }] },
      {
        onSuccess: ({ results }) => {
          const [result] = results;
          if (result?.status === 'added') notify({ kind: 'success', title: 'Added to cart', text: `${units} × ${product.name}`, durationMs: 2000 });
          else notify({ kind: 'error', title: 'Not added', text: result?.message ?? 'The cart did not take it.' });
        },
        onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
      },
    );
  }

  if (action === 'list') {
    return (
      <>
        <button
          type="button"
          className={className}
          onClick={() => signedIn(() => setListOpen(true))}
          aria-haspopup="dialog"
          aria-label={`Add to list: ${product.name}`}
        >
          Add to list
        </button>
        {listOpen ? <AddToListDialog product={product} quantity={units} onClose={() => setListOpen(false)} /> : null}
      </>
    );
  }
  return (
    <button type="button" className={className} onClick={() => signedIn(addToCart)} disabled={add.isPending} aria-label={`Add to cart: ${product.name}`}>
      {add.isPending ? <Spinner inline size="xs" /> : null}
      Add to cart
    </button>
  );
}
