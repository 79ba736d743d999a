export function SignupPage() {
  return (
    <section>
      <h1 className="text-2xl font-bold">Sign Up</h1>
    </section>
  );
}
