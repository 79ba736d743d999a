import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema, type ResetPasswordForm } from '@bulkcart/contracts/account';
import { paths } from '@bulkcart/contracts/routes';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { FormField, fieldAria } from '@/components/form/form-field.tsx';
import { PasswordInput } from '@/components/form/password-input.tsx';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { ApiError } from '@/lib/api-client.ts';
import { refreshMe } from '@/lib/auth/me.ts';
import { useResetPassword } from '@/features/auth/api/reset-password.ts';
import { AuthCard, AuthFormEnd } from '@/features/auth/components/auth-card.tsx';

const PASSWORD_HINT = 'At least 6 characters, with an upper-case and a lower-case letter.';

/** The page the mailed link opens: the token rides in the URL, the new password is typed twice. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordForm>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { newPassword: '', confirmPassword: '' } });

  const onSubmit = handleSubmit(({ newPassword }) => {
    reset.mutate(
      { newPassword, token },
      {
        onSuccess: async () => {
          setDone(true);
          // Every session of the account ended, this browser's included.
          await refreshMe();
        },
        onError: (error) =>
          error instanceof ApiError && error.status === 400
            ? setError('root.server', { type: 'server', message: 'This reset link is invalid, already used or past its hour. Ask for a new one.' })
            : showServerError(error, ['newPassword'], setError),
      },
    );
  });

  if (!token) {
    return (
      <AuthCard title="Reset your password" subtitle="This page opens from the link in the reset e-mail">
        <p role="alert" className="text-sm">
          The link is incomplete. Open it again from the e-mail, or{' '}
          <Link to={paths.forgotPassword} className="link link-primary">
            ask for a new one
          </Link>
          .
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password for your account">
      {done ? (
        <div role="status" className="flex flex-col gap-3 text-sm" data-testid="reset-done">
          <p>Your password is changed, and every session of your account was signed out.</p>
          <Link to={paths.login} className="btn btn-primary">
            Sign In
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Choose a new password">
          <FormField id="reset-new" label="New password" error={errors.newPassword?.message} hint={PASSWORD_HINT}>
            <PasswordInput {...register('newPassword')} {...fieldAria('reset-new', errors.newPassword?.message, PASSWORD_HINT)} autoComplete="new-password" />
          </FormField>
          <FormField id="reset-confirm" label="New password again" error={errors.confirmPassword?.message}>
            <PasswordInput {...register('confirmPassword')} {...fieldAria('reset-confirm', errors.confirmPassword?.message)} autoComplete="new-password" />
          </FormField>
          <AuthFormEnd label="Save new password" isPending={reset.isPending} error={errors.root?.server?.message ?? null}>
            {' '}
            <Link to={paths.forgotPassword} className="link">
              Ask for a new link
            </Link>
          </AuthFormEnd>
        </form>
      )}
    </AuthCard>
  );
}
