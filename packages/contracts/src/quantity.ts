/** Quantities as people read them; no zod here, so any page may import it. */
import { LIMITS } from './limits.ts';

/** "1 unit", "1,200 units": every quantity but the spec's own Cart table text ("{n} unite"). */
export function unitsText(quantity: number): string {
  return `${quantity.toLocaleString('en-US')} ${quantity === 1 ? 'unit' : 'units'}`;
}

/**
 * Checkout stepper rule (docs/product/screens.md): never below 1; anything that is not a number becomes
 * 1. With a case pack, the quantity rounds up to a whole number of cases (never below one case).
 */
export function clampQuantity(value: unknown, casepack = 1): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  const whole = Number.isFinite(n) ? Math.min(Math.max(1, Math.trunc(n)), LIMITS.quantityMax) : 1;
  const cases = Math.ceil(whole / casepack);
  const maxCases = Math.floor(LIMITS.quantityMax / casepack);
  return Math.min(cases, maxCases) * casepack;
}
