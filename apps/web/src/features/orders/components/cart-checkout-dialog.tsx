import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CART_LIMITS, CART_TEXT } from '@bulkcart/contracts/cart-rules';
import type { Cart } from '@bulkcart/contracts/cart';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { applyServerErrors } from '@/components/form/apply-server-errors.ts';
import { ApiError } from '@/lib/api-client.ts';
import { newIdempotencyKey } from '@/features/orders/api/create-order.ts';
import { useCheckout } from '@/features/orders/api/checkout.ts';
import { cartKeys } from '@/features/orders/api/order-keys.ts';
import { namesShipTo, withShipToFieldsUnprefixed } from '@/features/orders/lib/ship-to-errors.ts';
import { ShipToSection, useShipToChoice } from './ship-to-choice.tsx';
import { ADDRESS_FIELD_NAMES, type AddressFormValues } from './address-fields.tsx';
import { Spinner } from '@/components/spinner.tsx';

const money = (dollars: number) => formatMoney(toCents(dollars));

/**
 * The cart's checkout (docs/decisions/017-cart-and-checkout.md): where it ships (the saved address,
 * or another), a PO number, the total the buyer is shown, and one confirm that places every seller's
 * order or none. The total sent is the one on screen; if the server's differs the dialog shows the
 * new one and asks again.
 */
export function CartCheckoutDialog({ cart, onClose }: { cart: Cart; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const checkout = useCheckout();
  const shipToChoice = useShipToChoice();
  const { shipTo, setIsChanging, addressForm, readAddress } = shipToChoice;
  const [poNumber, setPoNumber] = useState('');
  // One key per intent while the dialog is open: Confirm pressed again after a lost answer replays.
  const keys = useRef(new Map<string, string>());
  const inFlight = useRef(false);

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current || shipTo.isPending) return;
    inFlight.current = true;
    try {
      const address = await readAddress();
      if (address === null) return;
      const po = poNumber.trim();
      const intent = `${cart.total}|${po}|${JSON.stringify(address ?? null)}`;
      const idempotencyKey = keys.current.get(intent) ?? newIdempotencyKey();
      keys.current.set(intent, idempotencyKey);
      const answer = await checkout.mutateAsync({
        input: { expectedTotal: cart.total, ...(po ? { poNumber: po } : {}), ...(address ? { shipTo: address } : {}) },
        idempotencyKey,
      });
      const numbers = answer.orders.map((o) => o.number).join(', ');
      notify({
        kind: 'success',
        title: answer.orders.length === 1 ? 'Order placed' : `${answer.orders.length} orders placed`,
        text: `${numbers}. Each seller accepts within 3 business days.`,
        durationMs: 4000,
      });
      onClose();
    } catch (error) {
      refused(error);
    } finally {
      inFlight.current = false;
    }
  }

  function refused(error: unknown) {
    if (!(error instanceof ApiError)) return;
    if (namesShipTo(error)) {
      setIsChanging(true);
      notify({
        kind: 'error',
        title: 'Check the address',
        text: applyServerErrors<AddressFormValues>(withShipToFieldsUnprefixed(error), ADDRESS_FIELD_NAMES, addressForm.setError),
      });
      return;
    }
    // The cart as the server would charge it now: shown at once, here and on the page.
    if (error.cart) queryClient.setQueryData(cartKeys.cart, error.cart as Cart);
    notify({ kind: 'error', title: error.title, text: error.message, durationMs: 6000 });
    // A new total is confirmed here; anything else is fixed in the cart itself.
    if (error.title !== CART_TEXT.pricesChangedTitle) onClose();
  }

  return (
    <Modal
      open
      onClose={onClose}
      title="Checkout"
      actions={
        <button
          type="submit"
          form={`${id}-form`}
          className="btn btn-primary min-w-40"
          disabled={checkout.isPending || shipTo.isPending}
          data-testid="confirm-checkout"
        >
          {checkout.isPending ? <Spinner inline /> : null}
          Place {cart.sellers.length === 1 ? 'order' : `${cart.sellers.length} orders`} · {money(cart.total)}
        </button>
      }
    >
      <form id={`${id}-form`} className="flex flex-col gap-4" noValidate onSubmit={(e) => void confirm(e)}>
        <table className="table table-sm" data-testid="checkout-summary">
          <caption className="sr-only">Orders to place</caption>
          <tbody>
            {cart.sellers.map((seller) => (
              <tr key={seller.sellerId ?? seller.sellerName}>
                <th scope="row" className="font-normal break-words">
                  {seller.sellerName}
                </th>
                <td className="text-right whitespace-nowrap">{money(seller.subtotal)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="text-base-content">
                Total
              </th>
              <td className="text-right text-base font-bold text-base-content" data-testid="checkout-total">
                {money(cart.total)}
              </td>
            </tr>
          </tfoot>
        </table>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-po`} className="text-sm font-medium">
            PO number (optional)
          </label>
          <input
            id={`${id}-po`}
            className="input w-full"
            maxLength={CART_LIMITS.poNumberMax}
            autoComplete="off"
            value={poNumber}
            onChange={(e) => setPoNumber(e.target.value)}
            aria-describedby={`${id}-po-hint`}
          />
          <p id={`${id}-po-hint`} className="text-xs text-base-content/60">
            Your purchase order number, shown on every order and invoice.
          </p>
        </div>
        <ShipToSection choice={shipToChoice} idPrefix={id} />
      </form>
    </Modal>
  );
}
