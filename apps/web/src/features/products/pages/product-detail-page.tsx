export function ProductDetailPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Product Details</h1>
    </section>
  );
}
