import { useState, type FormEvent } from 'react';
import type { SearchFacets } from '@bulkcart/contracts/search';
import type { SearchChoices } from '@/features/products/lib/search-url.ts';

interface SearchFiltersProps {
  choices: SearchChoices;
  facets: SearchFacets | undefined;
  change(next: Partial<SearchChoices>): void;
  /** After Apply: the phone's folded panel closes to show the results. */
  onApplied?(): void;
}

function toggled(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

function numberOrUndefined(value: FormDataEntryValue | null): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A facet's checkboxes with their counts; a picked value stays listed even when its count is 0. */
function FacetGroup({
  legend,
  counts,
  picked,
  onToggle,
}: {
  legend: string;
  counts: Array<{ value: string; count: number }>;
  picked: string[];
  onToggle(value: string): void;
}) {
  const shown = [...counts, ...picked.filter((p) => !counts.some((c) => c.value === p)).map((value) => ({ value, count: 0 }))];
  if (shown.length === 0) return null;
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{legend}</legend>
      {shown.map(({ value, count }) => (
        // daisyUI's label does not wrap: a long category name would push its count out of the panel.
        <label key={value} className="label cursor-pointer justify-start gap-2 py-0.5 text-sm whitespace-normal text-base-content">
          <input type="checkbox" className="checkbox checkbox-sm shrink-0" checked={picked.includes(value)} onChange={() => onToggle(value)} />
          <span className="min-w-0 grow break-words">{value}</span>
          <span className="badge badge-ghost badge-sm shrink-0" aria-label={`${count} results`}>
            {count}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The results page's filters. Checkboxes and the sort apply at once; the price band and the MOQ
 * apply with their button (or Enter), so typing "150" does not search for 1, then 15.
 */
export function SearchFilters({ choices, facets, change, onApplied }: SearchFiltersProps) {
  const [formKey, setFormKey] = useState(0);
  const price = facets?.price;

  function applyNumbers(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    change({
      minPrice: numberOrUndefined(data.get('minPrice')),
      maxPrice: numberOrUndefined(data.get('maxPrice')),
      maxMoq: numberOrUndefined(data.get('maxMoq')),
    });
    onApplied?.();
  }

  return (
    <div className="flex flex-col gap-3">
      <FacetGroup
        legend="Category"
        counts={facets?.categories ?? []}
        picked={choices.category}
        onToggle={(value) => change({ category: toggled(choices.category, value) as SearchChoices['category'] })}
      />
      <FacetGroup legend="Brand" counts={facets?.brands ?? []} picked={choices.brand} onToggle={(value) => change({ brand: toggled(choices.brand, value) })} />
      <label className="label cursor-pointer justify-start gap-2 text-sm text-base-content">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={choices.inStock === 'true'}
          onChange={(e) => change({ inStock: e.target.checked ? 'true' : undefined })}
        />
        In stock
      </label>
      <form key={formKey} className="flex flex-col gap-2" onSubmit={applyNumbers} aria-label="Price and MOQ">
        <fieldset className="fieldset">
          <legend className="fieldset-legend">Price ($)</legend>
          <div className="flex items-center gap-2">
            <label className="sr-only" htmlFor="search-min-price">
              Minimum price
            </label>
            <input
              id="search-min-price"
              name="minPrice"
              type="number"
              min={0}
              step="0.01"
              inputMode="decimal"
              className="input input-sm w-full"
              placeholder={price ? `${price.min}` : 'Min'}
              defaultValue={choices.minPrice ?? ''}
            />
            <span aria-hidden="true">–</span>
            <label className="sr-only" htmlFor="search-max-price">
              Maximum price
            </label>
            <input
              id="search-max-price"
              name="maxPrice"
              type="number"
              min={0}
              step="0.01"
              inputMode="decimal"
              className="input input-sm w-full"
              placeholder={price ? `${price.max}` : 'Max'}
              defaultValue={choices.maxPrice ?? ''}
            />
          </div>
        </fieldset>
        <label className="flex flex-col gap-1 text-sm" htmlFor="search-max-moq">
          <span className="font-semibold">MOQ at most</span>
          <input
            id="search-max-moq"
            name="maxMoq"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            className="input input-sm w-full"
            defaultValue={choices.maxMoq ?? ''}
          />
        </label>
        <div className="flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm">
            Apply
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setFormKey((k) => k + 1);
              change({ minPrice: undefined, maxPrice: undefined, maxMoq: undefined });
            }}
          >
            Clear
          </button>
        </div>
      </form>
    </div>
  );
}
