export function HomePage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">BulkCart</h1>
    </section>
  );
}
