import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordInputSchema, type ChangePasswordInput } from '@bulkcart/contracts/account';
import { useQueryClient } from '@tanstack/react-query';
import { FormField, fieldAria } from '@/components/form/form-field.tsx';
import { FormFooter } from '@/components/form/form-footer.tsx';
import { PasswordInput } from '@/components/form/password-input.tsx';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { notify } from '@/components/notice.tsx';
import { useChangePassword } from '@/features/accounts/api/password.ts';

const PASSWORD_HINT = 'At least 6 characters, with an upper-case and a lower-case letter.';

/** Change the password with the current one; every other session is signed out. */
export function PasswordSection() {
  const change = useChangePassword();
  const client = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({ resolver: zodResolver(changePasswordInputSchema), defaultValues: { currentPassword: '', newPassword: '' } });

  const onSubmit = handleSubmit((input) => {
    change.mutate(input, {
      onSuccess: async () => {
        reset();
        notify({ kind: 'success', text: 'Password changed. Your other sessions were signed out.' });
        await client.invalidateQueries({ queryKey: ['me', 'sessions'] });
      },
      onError: (error) => showServerError(error, ['currentPassword', 'newPassword'], setError),
    });
  });

  return (
    <section aria-labelledby="password-heading" className="card bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <h2 id="password-heading" className="card-title">
          Password
        </h2>
        <form noValidate onSubmit={onSubmit} className="grid gap-3 md:grid-cols-2" aria-label="Change password">
          <FormField id="current-password" label="Current password" error={errors.currentPassword?.message}>
            <PasswordInput
              {...register('currentPassword')}
              {...fieldAria('current-password', errors.currentPassword?.message)}
              autoComplete="current-password"
            />
          </FormField>
          <FormField id="new-password" label="New password" error={errors.newPassword?.message} hint={PASSWORD_HINT}>
            <PasswordInput
              {...register('newPassword')}
              {...fieldAria('new-password', errors.newPassword?.message, PASSWORD_HINT)}
              autoComplete="new-password"
            />
          </FormField>
          <FormFooter serverError={errors.root?.server?.message} isSubmitting={change.isPending}>
            Change password
          </FormFooter>
        </form>
      </div>
    </section>
  );
}
