export function CategoriesPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Select From Our categories</h1>
    </section>
  );
}
