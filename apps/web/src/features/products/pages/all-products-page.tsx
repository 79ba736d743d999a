export function AllProductsPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">All Product</h1>
    </section>
  );
}
