import { useEffect, useEffectEvent, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/**
 * A button that shows and hides a panel (the phone menu, the avatar menu, the notifications): it
 * opens only when pressed (click, Enter or Space), never because the focus passes by, so tabbing
 * through the header opens nothing. Escape closes it and leaves the focus on the button; a press
 * outside, or tabbing out of it, closes it too. Spread `rootProps` on the element holding both,
 * `buttonProps` on the button and `panelProps` on the panel.
 */
export function useDisclosure() {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const onPressOutside = useEffectEvent((event: PointerEvent) => {
    if (rootRef.current && event.target instanceof Node && !rootRef.current.contains(event.target)) setIsOpen(false);
  });
  useEffect(() => {
    if (!isOpen) return;
    document.addEventListener('pointerdown', onPressOutside);
    return () => document.removeEventListener('pointerdown', onPressOutside);
  }, [isOpen]);

  function close(refocus = false) {
    setIsOpen(false);
    if (refocus) buttonRef.current?.focus();
  }

  return {
    isOpen,
    close,
    rootProps: {
      ref: rootRef,
      onKeyDown(event: KeyboardEvent<HTMLElement>) {
        if (event.key !== 'Escape' || !isOpen) return;
        event.stopPropagation();
        close(true);
      },
      // A blur to nowhere does not close: a button inside that turns disabled drops the focus
      // without the reader going anywhere.
      onBlur(event: FocusEvent<HTMLElement>) {
        if (event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) setIsOpen(false);
      },
    },
    buttonProps: {
      ref: buttonRef,
      type: 'button' as const,
      'aria-expanded': isOpen,
      'aria-controls': panelId,
      onClick: () => setIsOpen((open) => !open),
    },
    panelProps: { id: panelId },
  };
}
