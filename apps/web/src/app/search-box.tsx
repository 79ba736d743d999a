import { lazy, Suspense, useRef, useState } from 'react';
import { useNavigate } from '@/lib/router.tsx';
import type { SuggestionHandlers } from '@/features/products/components/search-suggestions.tsx';

// The home page is at its JavaScript budget (decision 005): the suggestions, their requests and the
// keyboard handling load on the box's first focus; until then this is an input and a button.
const SearchSuggestions = lazy(() => import('@/features/products/components/search-suggestions.tsx'));

const LIST_ID = 'search-suggestions';
const INPUT_ID = 'search-box';

const magnifier = (
  <svg xmlns="http://www.w3.org/2000/svg" className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
    <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="m21 21-4.3-4.3M17 10.5a6.5 6.5 0 1 1-13 0 6.5 6.5 0 0 1 13 0Z" />
  </svg>
);

/**
 * The navbar's search box (docs/decisions/009-search.md): a combobox on every page; Enter opens /search?q=…. On a phone
 * it is a magnifier that opens the box over the navbar while it has the focus: CSS alone
 * (focus-within, index.css), the magnifier being the input's label: no script for it on the home page.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [hasFocused, setHasFocused] = useState(false);
  const handlers = useRef<SuggestionHandlers>(null);
  const input = useRef<HTMLInputElement>(null);

  function go(to: string) {
    input.current?.blur();
    void navigate(to);
  }

  return (
    <search className="navbar-search">
      <label htmlFor={INPUT_ID} title="Search">
        {magnifier}
      </label>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          go(`/search?q=${encodeURIComponent(value.trim())}`);
        }}
      >
        <input
          ref={input}
          id={INPUT_ID}
          type="search"
          value={value}
          role="combobox"
          aria-label="Search products"
          aria-autocomplete="list"
          // aria-expanded and aria-activedescendant are kept by the suggestions once loaded.
          aria-expanded="false"
          aria-controls={LIST_ID}
          autoComplete="off"
          placeholder="Search products"
          className="input input-sm w-full sm:w-44 lg:w-56"
          onFocus={() => setHasFocused(true)}
          onChange={(event) => {
            setValue(event.target.value);
            handlers.current?.input(event.target.value);
          }}
          onKeyDown={(event) => handlers.current?.keyDown(event)}
          onBlur={() => handlers.current?.blur()}
        />
        <button type="submit" className="btn btn-ghost btn-sm btn-square" aria-label="Search">
          {magnifier}
        </button>
        {hasFocused ? (
          <Suspense>
            <SearchSuggestions listId={LIST_ID} input={input} value={value} handlers={handlers} setValue={setValue} go={go} />
          </Suspense>
        ) : null}
      </form>
    </search>
  );
}
