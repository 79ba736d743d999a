import type { ReactNode } from 'react';
import { notify } from '../../../components/notice.tsx';

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

/** "Forgot your password?": the spec's link that goes nowhere; it says so instead of doing nothing. */
export function ForgotPasswordLink() {
  return (
    <button
      type="button"
      className="link link-hover text-sm text-primary"
      onClick={() => notify({ kind: 'info', text: 'Password reset is not available yet. Please contact support.', durationMs: 3000 })}
    >
      Forgot your password?
    </button>
  );
}

export function OrDivider() {
  return <div className="divider my-0 text-xs opacity-70">OR</div>;
}
