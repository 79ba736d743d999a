export function CartPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Cart</h1>
    </section>
  );
}
