import { useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { SEARCH_LIMITS } from '@bulkcart/contracts/search-text';
import type { Suggestion } from '@bulkcart/contracts/search';
import { getSuggestions } from '@/features/products/api/get-suggestions.ts';
import { searchPathForCategory, searchPathForWords } from '@/features/products/lib/search-paths.ts';

/** What the navbar's input forwards here once this chunk has loaded (app/search-box.tsx). */
export interface SuggestionHandlers {
  input(value: string): void;
  keyDown(event: KeyboardEvent<HTMLInputElement>): void;
  blur(): void;
}

interface SearchSuggestionsProps {
  listId: string;
  /** The input's text. */
  value: string;
  handlers: RefObject<SuggestionHandlers | null>;
  /** The combobox input: its aria-expanded and aria-activedescendant are set from here. */
  input: RefObject<HTMLInputElement | null>;
  setValue(value: string): void;
  go(path: string): void;
}

/** Keystrokes within this many ms make one request: typing "gloves" asks once or twice, not six times. */
const DEBOUNCE_MS = 150;

function pathOf(suggestion: Suggestion): string {
  return suggestion.kind === 'category' ? searchPathForCategory(suggestion.text) : searchPathForWords(suggestion.text);
}

/**
 * The listbox of the ARIA 1.2 combobox pattern: focus stays in the input, arrow keys move the active
 * option (aria-activedescendant), Enter opens it, Escape closes the list, and a polite live region
 * says how many suggestions there are. The newest request wins; older answers are dropped.
 */
export default function SearchSuggestions({ listId, input, value, handlers, setValue, go }: SearchSuggestionsProps) {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [isOpen, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(0);
  const optionId = (index: number) => `${listId}-option-${index}`;

  function ask(value: string) {
    clearTimeout(timer.current);
    const q = value.trim();
    if (q.length < SEARCH_LIMITS.suggestMinChars) {
      latest.current += 1;
      setSuggestions([]);
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      const request = ++latest.current;
      getSuggestions(q).then(
        (answer) => {
          if (request !== latest.current) return;
          setSuggestions(answer.suggestions);
          setActive(-1);
          setOpen(true);
        },
        () => {
          // A failed suggestion is no loss: Enter still searches.
          if (request === latest.current) setOpen(false);
        },
      );
    }, DEBOUNCE_MS);
  }

  function close() {
    setOpen(false);
    setActive(-1);
  }

  useImperativeHandle(handlers, () => ({
    input: ask,
    blur: close,
    keyDown(event) {
      const count = suggestions.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (!isOpen) {
          setOpen(count > 0);
          return;
        }
        if (count === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // Cycles through the options and back to the input's own text (-1), as the pattern suggests.
        setActive((current) => ((current + 1 + step + count + 1) % (count + 1)) - 1);
        return;
      }
      if (event.key === 'Enter' && isOpen && active >= 0 && suggestions[active]) {
        event.preventDefault();
        const picked = suggestions[active];
        if (picked.kind !== 'category') setValue(picked.text);
        close();
        go(pathOf(picked));
        return;
      }
      // Escape closes the list; with the list closed, it clears the text, then leaves the box (which
      // folds the phone's box back behind its magnifier).
      if (event.key === 'Escape') {
        event.preventDefault();
        if (isOpen && suggestions.length > 0) close();
        else if (value) setValue('');
        else input.current?.blur();
      }
    },
  }));

  // Text typed while this component was still loading (it loads on the box's first focus) was never
  // asked about: ask once on arrival.
  const typedBeforeLoad = useRef(value);
  useEffect(() => {
    if (typedBeforeLoad.current.trim().length >= SEARCH_LIMITS.suggestMinChars) handlers.current?.input(typedBeforeLoad.current);
  }, [handlers]);

  const expanded = isOpen && suggestions.length > 0;
  // Set on the element, not through the navbar's state: that keeps the home page's code smaller.
  const activeId = expanded && active >= 0 ? `${listId}-option-${active}` : null;
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    element.setAttribute('aria-expanded', String(expanded));
    if (activeId) element.setAttribute('aria-activedescendant', activeId);
    else element.removeAttribute('aria-activedescendant');
  }, [input, expanded, activeId]);

  return (
    <>
      <ul
        id={listId}
        role="listbox"
        aria-label="Search suggestions"
        hidden={!expanded}
        className="absolute left-0 top-full z-50 mt-1 w-full min-w-64 rounded-box bg-base-100 p-1 shadow-lg ring-1 ring-base-300"
      >
        {suggestions.map((suggestion, index) => (
          <li
            key={`${suggestion.kind}:${suggestion.text}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer rounded px-3 py-2 text-sm ${index === active ? 'bg-primary text-primary-content' : 'hover:bg-base-200'}`}
            // mousedown, not click: the input keeps its focus, so its blur does not close the list first.
            onMouseDown={(event) => {
              event.preventDefault();
              if (suggestion.kind !== 'category') setValue(suggestion.text);
              close();
              go(pathOf(suggestion));
            }}
          >
            {suggestion.kind === 'category' ? <span className="text-xs uppercase text-base-content/60">Category: </span> : null}
            {suggestion.kind === 'correction' ? (
              <>
                Did you mean <strong>{suggestion.text}</strong>?
              </>
            ) : (
              suggestion.text
            )}
          </li>
        ))}
      </ul>
      <div role="status" aria-live="polite" className="sr-only">
        {expanded ? `${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'}; arrow keys to choose` : ''}
      </div>
    </>
  );
}
