import { lazy, Suspense, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SuggestionHandlers, SuggestionAria } from '../features/products/components/search-suggestions.tsx';

// The home page is at its JavaScript budget (decision 005): the suggestions, their requests and the
// keyboard handling load on the box's first focus; until then this is an input and a button.
const SearchSuggestions = lazy(() => import('../features/products/components/search-suggestions.tsx'));

/** The navbar's search box (issue 17): a combobox on every page; Enter opens /search?q=…. */
export function SearchBox() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [isOpenOnPhone, setOpenOnPhone] = useState(false);
  const [hasFocused, setHasFocused] = useState(false);
  const [aria, setAria] = useState<SuggestionAria>({ expanded: false });
  const handlers = useRef<SuggestionHandlers>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  function go(to: string) {
    setOpenOnPhone(false);
    input.current?.blur();
    void navigate(to);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (handlers.current?.keyDown(event)) return;
    if (event.key === 'Escape') {
      setOpenOnPhone(false);
      if (value) setValue('');
    }
  }

  function openOnPhone() {
    setOpenOnPhone(true);
    // The box is display:none on a phone until now; focus it once it is shown.
    setTimeout(() => input.current?.focus());
  }

  return (
    <>
      {isOpenOnPhone ? null : (
        <button type="button" className="btn btn-ghost btn-square sm:hidden" aria-label="Open search" onClick={openOnPhone}>
          <Magnifier />
        </button>
      )}
    <search className={`${isOpenOnPhone ? 'absolute inset-x-2 top-2 z-50 flex rounded-box bg-base-100 p-1 shadow' : 'hidden'} sm:static sm:flex sm:bg-transparent sm:p-0 sm:shadow-none`}>
      <form
        className="relative flex w-full"
        onSubmit={(event) => {
          event.preventDefault();
          const q = value.trim();
          go(q ? `/search?q=${encodeURIComponent(q)}` : '/search');
        }}
      >
        <input
          ref={input}
          type="search"
          name="q"
          value={value}
          role="combobox"
          aria-label="Search products"
          aria-autocomplete="list"
          aria-expanded={aria.expanded}
          aria-controls={listId}
          aria-activedescendant={aria.activeId}
          autoComplete="off"
          placeholder="Search products"
          className="input input-sm w-full sm:w-44 lg:w-56"
          maxLength={200}
          onFocus={() => setHasFocused(true)}
          onChange={(event) => {
            setValue(event.target.value);
            handlers.current?.input(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            handlers.current?.blur();
            if (!value) setOpenOnPhone(false);
          }}
        />
        <button type="submit" className="btn btn-ghost btn-sm btn-square" aria-label="Search">
          <Magnifier />
        </button>
        {hasFocused ? (
          <Suspense fallback={null}>
            <SearchSuggestions listId={listId} handlers={handlers} setAria={setAria} setValue={setValue} go={go} />
          </Suspense>
        ) : null}
      </form>
    </search>
    </>
  );
}

function Magnifier() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="m21 21-4.3-4.3M17 10.5a6.5 6.5 0 1 1-13 0 6.5 6.5 0 0 1 13 0Z" />
    </svg>
  );
}
