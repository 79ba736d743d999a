import { useRef, useState } from 'react';
import { unitsText } from '@bulkcart/contracts/quantity';

/**
 * Whole cases only: a quantity typed off the case pack is rounded up, and the buyer is told so next
 * to the field as they type and after the field shows the rounded number, never after buying.
 * `text` is what the field holds, `quantity` what would be bought.
 */
export function useCasePackRounding(text: string, quantity: number, casepack: number) {
  const [wasRounded, setWasRounded] = useState(false);
  // Left the field for the submit button: that press is the one that would buy an unseen quantity.
  const holdsNextSubmit = useRef(false);
  const isOffPack = casepack > 1 && text.trim() !== '' && text !== String(quantity);
  return {
    showsNote: isOffPack || wasRounded,
    /** The quantity changed (typed, stepped): any earlier note is stale. */
    changed() {
      setWasRounded(false);
      holdsNextSubmit.current = false;
    },
    /** The field is about to show the rounded number: the note stays until the quantity changes. */
    rounded(focusGoesTo: EventTarget | null = null) {
      if (!isOffPack) return;
      setWasRounded(true);
      holdsNextSubmit.current = focusGoesTo instanceof HTMLButtonElement && focusGoesTo.type === 'submit';
    },
    /**
     * Whether this submit must only show the rounding (the field still holds 27, or Buy was pressed
     * straight from it); the next one buys.
     */
    holdsSubmit(): boolean {
      const holds = isOffPack || holdsNextSubmit.current;
      holdsNextSubmit.current = false;
      return holds;
    },
  };
}

export function CasePackNote({ id, casepack, quantity }: { id: string; casepack: number; quantity: number }) {
  return (
    <p id={id} className="rounded-box bg-info/10 px-3 py-2 text-sm" role="status" data-testid="case-pack-note">
      Rounded up to whole cases of {casepack}: {unitsText(quantity)}.
    </p>
  );
}
