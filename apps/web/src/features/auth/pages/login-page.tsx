export function LoginPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Sign In</h1>
    </section>
  );
}
