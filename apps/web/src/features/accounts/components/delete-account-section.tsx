import { useState } from 'react';
import { paths } from '@bulkcart/contracts/routes';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { FormField, fieldAria } from '@/components/form/form-field.tsx';
import { PasswordInput } from '@/components/form/password-input.tsx';
import { notify } from '@/components/notice.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useDeleteAccount } from '@/features/accounts/api/delete-account.ts';

/** Deleting the account, behind a dialog that asks for the password and says what stays. */
export function DeleteAccountSection() {
  const [isOpen, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
  };
  return (
    <section aria-labelledby="delete-heading" className="card border border-error/40 bg-base-100 shadow-sm">
      <div className="card-body gap-3">
        <h2 id="delete-heading" className="card-title">
          Delete account
        </h2>
        <p className="text-sm">
          Your products, saved address, business profile and notifications are deleted. Orders stay for the other side of each, under the names they were placed
          with. Orders still open must be finished or cancelled first.
        </p>
        <div>
          <button type="button" className="btn btn-error btn-outline btn-sm" onClick={() => setOpen(true)}>
            Delete my account
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={isOpen}
        title="Delete your account?"
        confirmLabel="Delete account"
        isPending={remove.isPending}
        onCancel={close}
        onConfirm={() =>
          remove.mutate(
            { password },
            {
              onSuccess: () => {
                close();
                notify({ kind: 'success', text: 'Your account is deleted.' });
                navigate(paths.home, { replace: true });
              },
              onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Something went wrong. Please try again.'),
            },
          )
        }
      >
        <p className="mb-3 text-sm">This cannot be undone. Type your password to confirm.</p>
        <FormField id="delete-password" label="Password" error={error}>
          <PasswordInput
            {...fieldAria('delete-password', error)}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
      </ConfirmDialog>
    </section>
  );
}
