/** The heading every home section opens with: the spec's exact title and a line under it. */
export function SectionHeading({ id, title, subtitle }: { id: string; title: string; subtitle: string }) {
  return (
    <header className="mb-8 text-center">
      <h2 id={id} className="text-2xl font-bold text-primary md:text-3xl">
        {title}
      </h2>
      <p className="mx-auto mt-2 max-w-2xl text-base-content/80">{subtitle}</p>
    </header>
  );
}
