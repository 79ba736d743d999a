import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '@/lib/router.tsx';
import { clampQuantity } from '@bulkcart/contracts/quantity';
import { ladderOf, quotePrice } from '@bulkcart/contracts/pricing';
import { toDollars } from '@bulkcart/contracts/money';
import type { Product } from '@bulkcart/contracts/product';
import { paths } from '@bulkcart/contracts/routes';
import { CasePackNote, useCasePackRounding } from '@/components/case-pack-note.tsx';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { applyServerErrors } from '@/components/form/apply-server-errors.ts';
import { useMe } from '@/lib/auth/me.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useBuyerPricing } from '@/lib/auth/pricing.ts';
import { VERIFY_TEXT } from '@bulkcart/contracts/verification';
import { newIdempotencyKey, useCreateOrder } from '@/features/orders/api/create-order.ts';
import { getProductForCheckout } from '@/features/orders/api/get-product-for-checkout.ts';
import { useSaveShipTo } from '@/features/orders/api/ship-to.ts';
import { checkPurchase, describePurchaseError, isPriceChanged } from '@/features/orders/lib/purchase-checks.ts';
import { namesShipTo, withShipToFieldsUnprefixed } from '@/features/orders/lib/ship-to-errors.ts';
import { ShipToSection, useShipToChoice } from './ship-to-choice.tsx';
import { ADDRESS_FIELD_NAMES, type AddressFormValues } from './address-fields.tsx';
import { PriceSummary } from './price-summary.tsx';
import { Spinner } from '@/components/spinner.tsx';

export interface CheckoutDialogProps {
  product: Product;
  initialQuantity: number;
  onClose: () => void;
}

/** After a purchase: the page the buyer came from (navigation state), else the cart. */
function useSuccessTarget(): string {
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : paths.cart;
}

/**
 * The checkout dialog (docs/product/screens.md): buyer, ship-to, a quantity stepper that never goes
 * below 1, and Buy. The saved address shows as "Ship to: …" with Change; without one, a compact
 * address form (saved for next time). Mounted only while open, so every opening starts afresh.
 */
export function CheckoutDialog({ product: opened, initialQuantity, onClose }: CheckoutDialogProps) {
  // The product as the buyer sees it priced here: the card's copy, replaced by a fresh read when the
  // server says its price changed, so the next Buy states the price now shown.
  const [product, setProduct] = useState(opened);
  const user = useMe().data?.user;
  const navigate = useNavigate();
  const successTarget = useSuccessTarget();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The typed text, so the field may be empty while the buyer retypes; the quantity is always clamped.
  const casepack = product.casepack;
  const [text, setText] = useState(() => String(clampQuantity(initialQuantity, casepack)));
  const quantity = clampQuantity(text, casepack);
  const rounding = useCasePackRounding(text, quantity, casepack);
  const ladder = ladderOf(product);
  const pricing = useBuyerPricing();
  // One key per purchase intent (quantity and address) for as long as the dialog is open: a Buy
  // clicked again after a lost answer must replay that order, not place a second, even after trying
  // another quantity in between. A new opening (a new mount) or a success starts afresh.
  const keysByIntent = useRef(new Map<string, string>());
  // Set before anything awaits: a double click submits twice before React re-renders the disabled button.
  const inFlight = useRef(false);
  const [isBuying, setIsBuying] = useState(false);

  const shipToChoice = useShipToChoice();
  const { shipTo, saved, addressForm, readAddress, setIsChanging } = shipToChoice;
  const [saveForNext, setSaveForNext] = useState(true);
  const saveShipTo = useSaveShipTo();

  const createOrder = useCreateOrder({
    onSuccess: (order) =>
      notify({ kind: 'success', title: 'Order placed', text: `${order.quantity} units of ${order.product.name} are on their way.`, durationMs: 1000 }),
    onError: (error) => {
      // An address problem is shown on its fields, not in a notice.
      if (!namesShipTo(error)) notify({ kind: 'error', ...describePurchaseError(error) });
    },
  });

  // The dialog opens in Modal's layout effect, which runs before this one: then focus can move in.
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  function keyFor(intent: string): string {
    let key = keysByIntent.current.get(intent);
    if (!key) {
      key = newIdempotencyKey();
      keysByIntent.current.set(intent, key);
    }
    return key;
  }

  async function buy(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current || shipTo.isPending) return;
    // Typed off the case pack and sent at once: this press shows the rounded quantity, the next buys it.
    if (rounding.holdsSubmit()) {
      roundToCases();
      return;
    }
    inFlight.current = true;
    setIsBuying(true);
    try {
      setText(String(quantity));
      const problem = checkPurchase(product, quantity);
      if (problem) {
        notify({ kind: 'error', ...problem });
        return;
      }
      // undefined: the saved address; null: the typed one has errors, now shown on its fields.
      const address = await readAddress();
      if (address === null) return;
      const idempotencyKey = keyFor(`${quantity}|${JSON.stringify(address ?? null)}`);
      // The unit price this dialog shows: the server places the order only at that price.
      const expectedUnitPrice = ladder ? toDollars(quotePrice(ladder, quantity, { breaksApply: pricing.breaksApply }).unitCents) : undefined;
      try {
        await createOrder.mutateAsync({
          input: {
            productId: product._id,
            quantity,
            ...(address ? { shipTo: address } : {}),
            ...(expectedUnitPrice !== undefined ? { expectedUnitPrice } : {}),
          },
          idempotencyKey,
        });
      } catch (error) {
        // The notice says the new price; the summary shows it once the product is read again.
        if (isPriceChanged(error)) await getProductForCheckout(product._id).then(setProduct, () => undefined);
        if (namesShipTo(error) && error instanceof ApiError) {
          setIsChanging(true);
          const message = applyServerErrors<AddressFormValues>(withShipToFieldsUnprefixed(error), ADDRESS_FIELD_NAMES, addressForm.setError);
          notify({ kind: 'error', title: 'Check the address', text: message });
        }
        return;
      }
      // Saved for next time: the server keeps the first address itself (and the order's success
      // refreshes every ['orders'] query, the saved address included); a changed one when asked to.
      if (address && saved !== null && saveForNext) saveShipTo.mutate(address);
      keysByIntent.current.clear();
      onClose();
      navigate(successTarget);
    } finally {
      inFlight.current = false;
      setIsBuying(false);
    }
  }

  function step(by: number) {
    rounding.changed();
    setText(String(clampQuantity(quantity + by, casepack)));
  }

  function roundToCases(focusGoesTo: EventTarget | null = null) {
    rounding.rounded(focusGoesTo);
    setText(String(quantity));
  }

  return (
    <Modal
      open
      onClose={onClose}
      title="Checkout"
      actions={
        <button type="submit" form={`${inputId}-form`} className="btn btn-primary min-w-28" disabled={isBuying || shipTo.isPending}>
          {isBuying ? <Spinner inline /> : null}
          Buy
        </button>
      }
    >
      <form id={`${inputId}-form`} className="flex flex-col gap-4" noValidate onSubmit={(e) => void buy(e)}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-box bg-base-200/60 p-3 text-sm">
          <dt className="text-base-content/70">Buyer</dt>
          <dd className="font-medium break-words" data-testid="checkout-buyer-name">
            {user?.displayName}
          </dd>
          <dt className="text-base-content/70">Email</dt>
          <dd className="break-all" data-testid="checkout-buyer-email">
            {user?.email}
          </dd>
        </dl>
        <div className="text-sm">
          <p className="font-semibold break-words">{product.name}</p>
          <p className="text-base-content/70">
            Min Buy: {product.minquantity} · In stock: {product.mainquantity}
            {casepack > 1 ? ` · Cases of ${casepack}` : ''}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            Quantity
          </label>
          <div className="join">
            <button type="button" className="btn join-item" aria-label="Decrease quantity" onClick={() => step(-casepack)}>
              −
            </button>
            <input
              ref={inputRef}
              id={inputId}
              type="number"
              inputMode="numeric"
              // The browser's own step check counts from min: cases of 12 are 12, 24, … only from 12.
              min={casepack}
              step={casepack}
              className="input join-item w-32 text-center"
              value={text}
              // Single units clamp as typed (docs/product/screens.md); whole cases wait for the blur, or typing 24 would stop at 12.
              onChange={(e) => {
                rounding.changed();
                setText(e.target.value === '' || casepack > 1 ? e.target.value : String(clampQuantity(e.target.value)));
              }}
              onBlur={(e) => roundToCases(e.relatedTarget)}
              aria-describedby={rounding.showsNote ? `${inputId}-cases` : undefined}
            />
            <button type="button" className="btn join-item" aria-label="Increase quantity" onClick={() => step(casepack)}>
              +
            </button>
          </div>
          {rounding.showsNote ? <CasePackNote id={`${inputId}-cases`} casepack={casepack} quantity={quantity} /> : null}
          {ladder ? <PriceSummary ladder={ladder} quantity={quantity} casepack={casepack} breaksApply={pricing.breaksApply} /> : null}
          {pricing.canOrder ? null : (
            <p className="alert alert-warning mt-2 text-sm" role="status" data-testid="verification-required">
              {VERIFY_TEXT.required.replace(' on /business.', '.')}{' '}
              <Link to={paths.business} className="link font-semibold">
                {VERIFY_TEXT.nudgeLink}
              </Link>
            </p>
          )}
        </div>
        <ShipToSection
          choice={shipToChoice}
          idPrefix={inputId}
          saveOption={
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="checkbox checkbox-sm" checked={saveForNext} onChange={(e) => setSaveForNext(e.target.checked)} />
              Save as my address for next orders
            </label>
          }
        />
      </form>
    </Modal>
  );
}
