export function MyProductsPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">My Product</h1>
    </section>
  );
}
