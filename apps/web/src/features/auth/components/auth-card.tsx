import { type ReactNode } from 'react';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { Spinner } from '@/components/spinner.tsx';

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

/** "Forgot your password?": the page that mails a reset link. */
export function ForgotPasswordLink() {
  return (
    <Link to={paths.forgotPassword} className="link link-hover text-sm text-primary">
      Forgot your password?
    </Link>
  );
}

/** The end of an auth form: its submit button (a spinner while pending, no second press), then its error. */
export function AuthFormEnd({
  label,
  isPending,
  error,
  errorTestId,
  children,
}: {
  label: string;
  isPending: boolean;
  error: string | null;
  errorTestId?: string;
  children?: ReactNode;
}) {
  return (
    <>
      <button type="submit" className="btn btn-primary w-full" disabled={isPending}>
        {isPending ? <Spinner inline /> : null}
        {label}
      </button>
      {error ? (
        <p role="alert" className="text-center text-sm text-error" data-testid={errorTestId}>
          {error}
          {children}
        </p>
      ) : null}
    </>
  );
}

export function OrDivider() {
  return <div className="divider my-0 text-xs opacity-70">OR</div>;
}
