/** Five stars with the rating filled, plus the number with two decimals (docs/product/screens.md: `4.00`). */
export function RatingStars({ rating, showNumber = true }: { rating: number | null | undefined; showNumber?: boolean }) {
  const value = Math.max(0, Math.min(5, rating ?? 0));
  return (
    <span role="img" className="inline-flex items-center gap-1" aria-label={`Rated ${value.toFixed(2)} out of 5`}>
      <span aria-hidden="true" className="text-warning">
        {'★'.repeat(Math.round(value))}
        <span className="text-base-300">{'★'.repeat(5 - Math.round(value))}</span>
      </span>
      {showNumber ? <span className="text-sm font-medium">{value.toFixed(2)}</span> : null}
    </span>
  );
}
