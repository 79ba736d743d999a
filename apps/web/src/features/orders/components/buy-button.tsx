import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from '@/lib/router.tsx';
import { isBelowMoq } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { loadMe, useMe } from '@/lib/auth/me.ts';
import type { BuyButtonProps } from '@/components/buy-button-slot.tsx';
import type { CheckoutDialogProps } from './checkout-dialog.tsx';

export type { BuyButtonProps };

// The dialog (and the order schema it uses) loads when a buyer reaches for a buy button, not with
// every page of cards; pointing at or focusing the button starts the download before the click.
// It brings TanStack's provider along: the home page's cards render without it (decision 005).
const loadCheckoutDialog = () => Promise.all([import('./checkout-dialog.tsx'), import('@/lib/query-provider.tsx')]);
const CheckoutDialog = lazy(() =>
  loadCheckoutDialog().then(([{ CheckoutDialog: Dialog }, { QueryProvider }]) => ({
    default: (props: CheckoutDialogProps) => (
      <QueryProvider>
        <Dialog {...props} />
      </QueryProvider>
    ),
  })),
);

/**
 * The buy button of a product card or the detail page. Signed in, it opens the checkout dialog;
 * signed out, it goes to the sign-in page, which brings the buyer back here afterwards. Other
 * features render it through components/buy-button-slot.tsx, which app/root-layout.tsx fills.
 */
export function BuyButton({ product, quantity, label = 'Buy Now', className = 'btn btn-secondary btn-sm' }: BuyButtonProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [isOpen, setIsOpen] = useState(false);
  const email = useMe().data?.user?.email;
  // Nobody may buy their own product (the server refuses it): the seller is told so instead.
  const isOwn = email !== undefined && email.toLowerCase() === product.useremail.toLowerCase();

  function open() {
    // Pages wait for the session check (root-layout.tsx), but a signed-out answer or a session that
    // ended since must still lead to sign-in, so the click asks for the current answer.
    void loadMe().then((me) => {
      if (me?.user) setIsOpen(true);
      else navigate(paths.login, { state: { from: `${location.pathname}${location.search}` } });
    });
  }

  // What the server would refuse anyway, said on the button before the click.
  const reason = product.price === null ? 'No price yet' : isBelowMoq(product) ? 'Out of stock' : isOwn ? 'This is your product' : null;
  if (reason) {
    return (
      <button type="button" className={className} disabled>
        {reason}
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={open}
        onPointerEnter={() => void loadCheckoutDialog()}
        onFocus={() => void loadCheckoutDialog()}
        aria-haspopup="dialog"
      >
        {label}
      </button>
      {isOpen ? (
        <Suspense fallback={null}>
          <CheckoutDialog product={product} initialQuantity={quantity ?? product.minquantity ?? 1} onClose={() => setIsOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
