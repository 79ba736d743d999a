/** Quantities as people read them; no zod here, so any page may import it. */

/** "1 unit", "1,200 units": every quantity but the spec's own Cart table text ("{n} unite"). */
export function unitsText(quantity: number): string {
  return `${quantity.toLocaleString('en-US')} ${quantity === 1 ? 'unit' : 'units'}`;
}
