import type { ReactNode } from 'react';
import { Spinner } from '@/components/spinner.tsx';

/**
 * The end of a page form: the server's message for the whole form (one that names no field), then the
 * submit button, which shows a spinner and refuses a second press while the request runs.
 */
export function FormFooter({ serverError, isSubmitting, children }: { serverError?: string; isSubmitting: boolean; children: ReactNode }) {
  return (
    <>
      {serverError ? (
        <p role="alert" className="text-error md:col-span-2">
          {serverError}
        </p>
      ) : null}
      <div className="md:col-span-2">
        <button type="submit" className="btn btn-primary w-full md:w-auto" disabled={isSubmitting}>
          {isSubmitting ? <Spinner inline /> : null}
          {children}
        </button>
      </div>
    </>
  );
}
