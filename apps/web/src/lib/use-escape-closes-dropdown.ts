import { useState, type FocusEvent, type KeyboardEvent } from 'react';

/**
 * daisyUI's dropdown is open while focus is inside it, so Escape alone closes nothing. This keeps the
 * focus on the dropdown's button (keyboard users stay where they were) and shuts the menu with
 * daisyUI's `dropdown-close` until the button is pressed again or the focus leaves.
 * Spread the result on the `.dropdown` element.
 */
export function useEscapeClosesDropdown(className: string) {
  const [isClosed, setClosed] = useState(false);
  return {
    className: isClosed ? `${className} dropdown-close` : className,
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      if (event.key !== 'Escape' || isClosed) return;
      event.stopPropagation();
      setClosed(true);
      event.currentTarget.querySelector<HTMLElement>('button')?.focus();
    },
    // While open, daisyUI lets clicks on the button fall through to this element: a press reopens.
    onClick() {
      if (isClosed) setClosed(false);
    },
    onBlur(event: FocusEvent<HTMLElement>) {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setClosed(false);
    },
  };
}
