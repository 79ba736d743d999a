import { useId, useState, type ReactNode } from 'react';

/** The frame shared by the Sign In and Sign-up pages: a centred card with a heading. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <section className="flex justify-center py-4 sm:py-10">
      <div className="card w-full max-w-md bg-base-100 shadow-md">
        <div className="card-body gap-5 p-6 sm:p-8">
          <header className="text-center">
            <h1 className="text-3xl font-bold text-primary">{title}</h1>
            <p className="mt-1 text-sm opacity-70">{subtitle}</p>
          </header>
          {children}
        </div>
      </div>
    </section>
  );
}

/**
 * "Forgot your password?": the spec's link that goes nowhere. There is no reset by e-mail and no
 * support desk, so it says plainly what a person can do instead, in place, for as long as they need.
 */
export function ForgotPasswordLink() {
  const [isOpen, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="flex w-full flex-col items-end text-sm">
      <button type="button" className="link link-hover text-primary" aria-expanded={isOpen} aria-controls={id} onClick={() => setOpen((open) => !open)}>
        Forgot your password?
      </button>
      <p id={id} hidden={!isOpen} className="mt-2 w-full rounded-box bg-base-200 p-3 text-base-content/80">
        BulkCart cannot reset passwords by e-mail yet. If your account uses Google, sign in with Google;
        otherwise create a new account with another e-mail address on the Sign Up page.
      </p>
    </div>
  );
}

export function OrDivider() {
  return <div className="divider my-0 text-xs opacity-70">OR</div>;
}
