/** Unit price after discount, in integer cents, rounded half up: the price an order records. */
export function discountedUnitCents(priceDollars: number, discountPercent: number): number {
  const cents = priceDollars * 100;
  return Math.round((cents * (100 - discountPercent)) / 100);
}

export function formatDollars(cents: number): string {
  return `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;
}
