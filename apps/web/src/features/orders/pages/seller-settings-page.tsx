import { useId, useState, type FormEvent } from 'react';
import { sellerSettingsSchema } from '@bulkcart/contracts/seller';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { notify } from '@/components/notice.tsx';
import { fieldAria, FormField, inputClass } from '@/components/form/form-field.tsx';
import { FormFooter } from '@/components/form/form-footer.tsx';
import { useSaveSellerSettings, useSellerSettings } from '@/features/orders/api/seller-settings.ts';

/**
 * /seller/settings (docs/decisions/017-cart-and-checkout.md): the seller's minimum order value, which
 * every order from them must reach; empty for none. Buyers see it on the product pages and the cart.
 */
export function SellerSettingsPage() {
  const settings = useSellerSettings();
  return (
    <section aria-labelledby="seller-settings-heading" className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <h1 id="seller-settings-heading" className="text-2xl font-bold md:text-3xl">
        Seller settings
      </h1>
      {settings.isPending ? (
        <Spinner label="Loading your settings" />
      ) : settings.data ? (
        <MinimumForm key={String(settings.data.minimumOrder)} initial={settings.data.minimumOrder} />
      ) : (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      )}
    </section>
  );
}

function MinimumForm({ initial }: { initial: number | null }) {
  const id = useId();
  const [text, setText] = useState(initial === null ? '' : String(initial));
  const [error, setError] = useState<string | undefined>();
  const save = useSaveSellerSettings();
  const hint = 'Every order from you must reach this amount. Leave empty for no minimum.';

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = sellerSettingsSchema.safeParse({ minimumOrder: text.trim() === '' ? null : Number(text) });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: (saved) =>
        notify({
          kind: 'success',
          text: saved.minimumOrder === null ? 'No minimum order.' : `Minimum order set to ${formatMoney(toCents(saved.minimumOrder))}.`,
          durationMs: 2000,
        }),
      onError: (e) => setError(e.fieldErrors.minimumOrder?.join(' ') ?? e.message),
    });
  }

  return (
    <form className="flex flex-col gap-4 rounded-box bg-base-100 p-4 ring-1 ring-base-300" onSubmit={submit} noValidate>
      <FormField id={`${id}-minimum`} label="Minimum order ($)" error={error} hint={hint}>
        <input
          {...fieldAria(`${id}-minimum`, error, hint)}
          className={inputClass(Boolean(error))}
          type="number"
          inputMode="decimal"
          min={0.01}
          step={0.01}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </FormField>
      <FormFooter isSubmitting={save.isPending}>Save</FormFooter>
    </form>
  );
}
