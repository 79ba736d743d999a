export function UpdateProductPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Update Product</h1>
    </section>
  );
}
