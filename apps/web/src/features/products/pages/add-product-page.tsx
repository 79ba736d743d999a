export function AddProductPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Add Product</h1>
    </section>
  );
}
