import { useState, type ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { addressSchema, type Address } from '@bulkcart/contracts/address';
import { useShipTo } from '@/features/orders/api/ship-to.ts';
import { addressOneLine } from '@/features/orders/lib/order-display.ts';
import { AddressFields, blankAddress, toAddressFormValues, type AddressFormValues } from './address-fields.tsx';
import { Spinner } from '@/components/spinner.tsx';

/**
 * Where an order ships, for the two checkouts (Buy Now's dialog and the cart's): the saved address,
 * or one typed in the address form, shown when none is saved (or it could not be read) or after
 * Change. `readAddress` answers `undefined` for the saved address, the typed one, or `null` when the
 * typed one has errors (now shown on its fields).
 */
export function useShipToChoice() {
  const shipTo = useShipTo();
  const saved = shipTo.data?.shipTo ?? null;
  const [isChanging, setIsChanging] = useState(false);
  const showForm = isChanging || (!shipTo.isPending && saved === null);
  const addressForm = useForm<AddressFormValues, unknown, Address>({
    resolver: zodResolver(addressSchema) as unknown as Resolver<AddressFormValues, unknown, Address>,
    defaultValues: blankAddress,
    mode: 'onTouched',
  });

  async function readAddress(): Promise<Address | undefined | null> {
    if (!showForm) return undefined;
    let typed: Address | null = null;
    await addressForm.handleSubmit((values) => {
      typed = { ...values, line2: values.line2 || undefined };
    })();
    return typed;
  }

  function startChange() {
    addressForm.reset(saved ? toAddressFormValues(saved) : blankAddress);
    setIsChanging(true);
  }

  return { shipTo, saved, showForm, setIsChanging, addressForm, readAddress, startChange };
}

export type ShipToChoice = ReturnType<typeof useShipToChoice>;

/**
 * The ship-to part of a checkout: loading, the address form (with `Use my saved address` when one is
 * saved, and `saveOption` beside it), or `Ship to: …` with `Change`.
 */
export function ShipToSection({ choice, idPrefix, saveOption }: { choice: ShipToChoice; idPrefix: string; saveOption?: ReactNode }) {
  const { shipTo, saved, showForm, setIsChanging, addressForm, startChange } = choice;
  if (shipTo.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-base-content/70" role="status">
        <Spinner inline size="xs" /> Loading your ship-to address
      </p>
    );
  }
  if (showForm) {
    return (
      <div className="flex flex-col gap-2">
        {shipTo.isError ? <p className="text-sm text-error">Your saved address could not be loaded; enter where to ship.</p> : null}
        <AddressFields idPrefix={idPrefix} register={addressForm.register} errors={addressForm.formState.errors} />
        {saved ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {saveOption ?? <span />}
            <button type="button" className="link text-sm" onClick={() => setIsChanging(false)}>
              Use my saved address
            </button>
          </div>
        ) : (
          <p className="text-xs text-base-content/60">Saved for your next orders.</p>
        )}
      </div>
    );
  }
  if (!saved) return null;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 rounded-box bg-base-200/60 p-3 text-sm" data-testid="checkout-ship-to">
      <span className="font-medium">Ship to:</span>
      <span className="min-w-0 flex-1 break-words">{addressOneLine(saved)}</span>
      <button type="button" className="link link-primary" onClick={startChange} aria-label="Change the ship-to address">
        Change
      </button>
    </p>
  );
}
