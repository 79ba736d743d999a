import { useState } from 'react';
import { CART_TEXT } from '@bulkcart/contracts/cart-rules';
import type { Cart, CartLine, CartSeller } from '@bulkcart/contracts/cart';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { notify } from '@/components/notice.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';
import type { UseQueryResult } from '@tanstack/react-query';
import { useRemoveCartLine, useSetCartLine } from '@/features/orders/api/cart.ts';
import { OrderImage } from './order-image.tsx';
import { CartCheckoutDialog } from './cart-checkout-dialog.tsx';
import { QuantityStepper } from './quantity-stepper.tsx';
import { Spinner } from '@/components/spinner.tsx';

const money = (dollars: number) => formatMoney(toCents(dollars));

/** What stops the whole cart from checking out: a line that cannot be bought, or a seller's minimum. */
export function checkoutBlockers(cart: Cart): number {
  const lines = cart.lines.filter((l) => l.problem && l.problem.code !== 'price_changed').length;
  return lines + cart.sellers.filter((s) => s.shortBy > 0).length;
}

/**
 * The real cart above the spec's orders table on /cart (docs/decisions/017-cart-and-checkout.md):
 * lines grouped by seller with steppers, each group's subtotal and minimum, each line's problem with
 * its fix, the total and Checkout.
 */
export function ShoppingCart({ cart }: { cart: UseQueryResult<Cart> }) {
  const [isCheckingOut, setIsCheckingOut] = useState(false);
  if (cart.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-base-content/70" role="status">
        <Spinner inline /> Loading your cart
      </p>
    );
  }
  if (!cart.data) return <LoadError error={cart.error} onRetry={() => void cart.refetch()} />;
  const data = cart.data;
  if (data.count === 0) {
    return (
      <p className="rounded-box bg-base-100 p-4 text-sm ring-1 ring-base-300" data-testid="cart-lines-empty">
        Nothing waiting to be ordered. Use Add to cart on a product, or paste SKUs on{' '}
        <Link to={paths.quickOrder} className="link link-primary font-semibold">
          Quick order
        </Link>
        .
      </p>
    );
  }
  const blockers = checkoutBlockers(data);
  return (
    <section aria-labelledby="cart-lines-heading" className="flex flex-col gap-4" data-testid="shopping-cart">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="cart-lines-heading" className="text-xl font-bold">
          Ready to order <span className="text-base font-normal text-base-content/70">({data.count === 1 ? '1 line' : `${data.count} lines`})</span>
        </h2>
        <Link to={paths.quickOrder} className="link link-primary text-sm">
          Quick order by SKU
        </Link>
      </div>
      {data.sellers.map((seller) => (
        <SellerGroup key={seller.sellerId ?? seller.sellerName} seller={seller} lines={data.lines.filter((l) => sameSeller(l, seller))} />
      ))}
      <div className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-lg">
          Total{' '}
          <span className="font-bold" data-testid="cart-total">
            {money(data.total)}
          </span>
          <span className="block text-sm text-base-content/70">
            {data.sellers.length === 1 ? 'One order' : `${data.sellers.length} orders, one per seller`}
          </span>
        </p>
        <div className="flex flex-col items-stretch gap-1 sm:items-end">
          <button type="button" className="btn btn-primary" disabled={blockers > 0} onClick={() => setIsCheckingOut(true)} aria-haspopup="dialog">
            Checkout
          </button>
          {blockers > 0 ? (
            <p className="text-sm text-warning-content" data-testid="checkout-blocked">
              Fix {blockers === 1 ? 'the problem' : `the ${blockers} problems`} above to check out.
            </p>
          ) : null}
        </div>
      </div>
      {isCheckingOut ? <CartCheckoutDialog cart={data} onClose={() => setIsCheckingOut(false)} /> : null}
    </section>
  );
}

function sameSeller(line: CartLine, seller: CartSeller): boolean {
  return seller.sellerId !== null ? line.sellerId === seller.sellerId : line.sellerId === null && line.sellerName === seller.sellerName;
}

function SellerGroup({ seller, lines }: { seller: CartSeller; lines: CartLine[] }) {
  return (
    <article className="rounded-box bg-base-100 ring-1 ring-base-300" data-testid="cart-seller" aria-label={`From ${seller.sellerName}`}>
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-base-200 px-4 py-3">
        <h3 className="font-semibold break-words">{seller.sellerName}</h3>
        <p className="text-sm">
          Subtotal{' '}
          <span className="font-semibold" data-testid="seller-subtotal">
            {money(seller.subtotal)}
          </span>
        </p>
        {seller.minimumOrder !== null ? (
          <p className="w-full text-sm text-base-content/70" data-testid="seller-minimum">
            {CART_TEXT.minimumOrder(money(seller.minimumOrder))}
          </p>
        ) : null}
        {seller.shortBy > 0 ? (
          <p className="w-full rounded-box bg-warning/20 px-2 py-1 text-sm" role="status" data-testid="seller-short">
            {CART_TEXT.addMore(money(seller.shortBy), seller.sellerName)}
          </p>
        ) : null}
      </header>
      <ul className="divide-y divide-base-200">
        {lines.map((line) => (
          <CartLineItem key={line.productId} line={line} />
        ))}
      </ul>
    </article>
  );
}

function CartLineItem({ line }: { line: CartLine }) {
  const setLine = useSetCartLine();
  const removeLine = useRemoveCartLine();
  const isGone = line.problem?.code === 'deleted';
  const busy = setLine.isPending || removeLine.isPending;

  function save(quantity: number) {
    setLine.mutate(
      { productId: line.productId, quantity },
      { onError: (error) => notify({ kind: 'error', title: error.code === 'BELOW_MOQ' ? MESSAGES.moqTitle : error.title, text: error.message }) },
    );
  }
  function remove() {
    removeLine.mutate(line.productId, { onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }) });
  }

  return (
    <li className="flex flex-col gap-2 px-4 py-3" data-testid="cart-line" data-product-id={line.productId}>
      <div className="flex gap-3">
        <OrderImage src={line.image} alt={line.name} />
        <div className="min-w-0 flex-1">
          {isGone ? (
            <p className="font-semibold break-words">{line.name}</p>
          ) : (
            <Link to={paths.product(line.productId)} className="link-hover font-semibold break-words">
              {line.name}
            </Link>
          )}
          <p className="text-xs text-base-content/70">
            {line.sku ? `SKU ${line.sku} · ` : ''}Min Buy {line.minquantity}
            {line.casepack > 1 ? ` · Cases of ${line.casepack}` : ''}
          </p>
          {isGone ? null : (
            <p className="text-sm">
              {money(line.unitPrice)} each
              {line.unitPrice < line.listUnitPrice ? <s className="ml-1 text-base-content/60">{money(line.listUnitPrice)}</s> : null}
            </p>
          )}
        </div>
        <p className="text-right font-semibold whitespace-nowrap" data-testid="line-total">
          {money(line.lineTotal)}
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {isGone ? <span /> : <QuantityStepper line={line} disabled={busy} onCommit={save} />}
        <button type="button" className="btn btn-ghost btn-sm" onClick={remove} disabled={busy} aria-label={`Remove ${line.name} from the cart`}>
          Remove
        </button>
      </div>
      {line.problem ? <LineProblem line={line} disabled={busy} onSet={save} onRemove={remove} /> : null}
    </li>
  );
}

/** The line's problem in words, with the fix one press away. */
function LineProblem({ line, disabled, onSet, onRemove }: { line: CartLine; disabled: boolean; onSet: (quantity: number) => void; onRemove: () => void }) {
  const problem = line.problem!;
  const isPriceChange = problem.code === 'price_changed';
  const fix =
    problem.quantity === null ? (
      <button type="button" className="btn btn-xs" onClick={onRemove} disabled={disabled}>
        Remove
      </button>
    ) : (
      <button type="button" className="btn btn-xs" onClick={() => onSet(problem.quantity!)} disabled={disabled}>
        {isPriceChange ? 'Keep at the new price' : `Set to ${problem.quantity}`}
      </button>
    );
  return (
    <p
      className={`flex flex-wrap items-center gap-2 rounded-box px-2 py-1 text-sm ${isPriceChange ? 'bg-info/15' : 'bg-warning/20'}`}
      role="status"
      data-testid="line-problem"
      data-code={problem.code}
    >
      <span className="flex-1">{problem.message}</span>
      {fix}
    </p>
  );
}
