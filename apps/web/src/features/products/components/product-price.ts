/** The spec's price text: a dollar sign and the whole-dollar unit price. */
export function formatPrice(price: number | null): string {
  return price === null ? 'Price on request' : `$${price}`;
}
