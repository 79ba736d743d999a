import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changeEmailInputSchema, type ChangeEmailInput, type Me } from '@bulkcart/contracts/account';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { FormFooter } from '@/components/form/form-footer.tsx';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { ResendConfirmationButton } from '@/components/resend-confirmation-button.tsx';
import { useChangeEmail } from '@/features/accounts/api/email.ts';

/** The address, whether it is confirmed, and a change that only takes effect once the new one confirms. */
export function EmailSection({ user }: { user: Me }) {
  const change = useChangeEmail();
  const [pendingAddress, setPendingAddress] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangeEmailInput>({ resolver: zodResolver(changeEmailInputSchema), defaultValues: { newEmail: '' } });

  const onSubmit = handleSubmit((input) => {
    change.mutate(input, {
      onSuccess: () => {
        setPendingAddress(input.newEmail);
        reset();
      },
      onError: (error) => showServerError(error, ['newEmail'], setError),
    });
  });

  return (
    <section aria-labelledby="email-heading" className="card bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <h2 id="email-heading" className="card-title">
          E-mail
        </h2>
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-all font-medium" data-testid="settings-email">
            {user.email}
          </span>
          {user.emailVerified ? (
            <span className="badge badge-success gap-1" data-testid="email-status">
              <span aria-hidden="true">✓</span> Confirmed
            </span>
          ) : (
            <span className="badge badge-warning" data-testid="email-status">
              Not confirmed
            </span>
          )}
        </p>
        {user.emailVerified ? null : <ResendConfirmationButton email={user.email} />}
        <form noValidate onSubmit={onSubmit} className="grid gap-3 md:grid-cols-2" aria-label="Change e-mail">
          <FormField id="new-email" label="New e-mail address" error={errors.newEmail?.message} className="md:col-span-2">
            <input
              {...register('newEmail')}
              {...fieldAria('new-email', errors.newEmail?.message)}
              type="email"
              autoComplete="email"
              className={inputClass(Boolean(errors.newEmail))}
            />
          </FormField>
          <FormFooter serverError={errors.root?.server?.message} isSubmitting={change.isPending}>
            Change e-mail
          </FormFooter>
        </form>
        {pendingAddress ? (
          <p role="status" className="text-sm">
            We sent a link to <strong className="break-all">{pendingAddress}</strong>. Your address changes once you open it; {user.email} was told too.
          </p>
        ) : null}
      </div>
    </section>
  );
}
