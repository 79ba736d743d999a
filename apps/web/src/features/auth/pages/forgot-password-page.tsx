import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { requestPasswordResetInputSchema, type RequestPasswordResetInput } from '@bulkcart/contracts/account';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { useRequestPasswordReset } from '@/features/auth/api/reset-password.ts';
import { AuthCard, AuthFormEnd } from '@/features/auth/components/auth-card.tsx';

/** "Forgot your password?": the address gets a one-hour link, if it has an account; the page never says which. */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RequestPasswordResetInput>({ resolver: zodResolver(requestPasswordResetInputSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((input) => {
    request.mutate(input, {
      onSuccess: () => setSentTo(input.email),
      onError: (error) => showServerError(error, ['email'], setError),
    });
  });

  return (
    <AuthCard title="Forgot your password?" subtitle="We will e-mail you a link to choose a new one">
      {sentTo ? (
        <div role="status" className="flex flex-col gap-3 text-sm" data-testid="reset-requested">
          <p>
            If <strong className="break-all">{sentTo}</strong> has a BulkCart account, an e-mail with a reset link is on its way. The link works once, for one
            hour.
          </p>
          <p className="text-base-content/80">No e-mail after a few minutes? Check your spam folder, or ask again.</p>
          <button type="button" className="btn btn-outline btn-sm self-start" onClick={() => setSentTo(null)}>
            Send another link
          </button>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Request a password reset">
          <FormField id="forgot-email" label="Email" error={errors.email?.message}>
            <input
              {...register('email')}
              {...fieldAria('forgot-email', errors.email?.message)}
              type="email"
              autoComplete="email"
              className={inputClass(Boolean(errors.email))}
              placeholder="you@company.com"
            />
          </FormField>
          <AuthFormEnd label="Send reset link" isPending={request.isPending} error={errors.root?.server?.message ?? null} />
        </form>
      )}
      <p className="text-center text-sm">
        Remembered it?{' '}
        <Link to={paths.login} className="link link-primary font-semibold">
          Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
