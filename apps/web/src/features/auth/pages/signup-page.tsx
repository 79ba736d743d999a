import { Link, useLocation } from '@/lib/router.tsx';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signUpInputSchema } from '@bulkcart/contracts/account';
import { paths } from '@bulkcart/contracts/routes';
import { useMe } from '@/lib/auth/me.ts';
import { useSignUp } from '@/features/auth/api/sign-up.ts';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { AuthCard, AuthFormEnd, ForgotPasswordLink, OrDivider } from '@/features/auth/components/auth-card.tsx';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { PasswordInput } from '@/components/form/password-input.tsx';
import { GoogleButton } from '@/features/auth/components/google-button.tsx';

const SIGN_UP_FIELDS = ['name', 'email', 'password', 'image'] as const;

export function SignupPage() {
  const me = useMe();
  const location = useLocation();
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(signUpInputSchema),
    defaultValues: { name: '', email: '', password: '', image: '' },
  });

  const onSubmit = handleSubmit((input) => {
    // On success RedirectIfSignedIn moves on to the page the user came from (see useSignUp).
    signUp.mutate(input, { onError: (error) => showServerError(error, SIGN_UP_FIELDS, setError) });
  });

  return (
    <AuthCard title="Sign Up" subtitle="Create your BulkCart wholesale account">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Sign Up">
        <FormField id="signup-name" label="Name" error={errors.name?.message}>
          <input
            {...register('name')}
            {...fieldAria('signup-name', errors.name?.message)}
            autoComplete="name"
            className={inputClass(Boolean(errors.name))}
            placeholder="Your name or business name"
          />
        </FormField>
        <FormField id="signup-email" label="Email" error={errors.email?.message}>
          <input
            {...register('email')}
            {...fieldAria('signup-email', errors.email?.message)}
            type="email"
            autoComplete="email"
            className={inputClass(Boolean(errors.email))}
            placeholder="you@company.com"
          />
        </FormField>
        <FormField id="signup-password" label="Password" error={errors.password?.message}>
          <PasswordInput {...register('password')} {...fieldAria('signup-password', errors.password?.message)} autoComplete="new-password" />
        </FormField>
        <FormField id="signup-image" label="Photo URL (optional)" error={errors.image?.message}>
          <input
            {...register('image')}
            {...fieldAria('signup-image', errors.image?.message)}
            type="url"
            inputMode="url"
            autoComplete="photo"
            className={inputClass(Boolean(errors.image))}
            placeholder="https://…"
          />
        </FormField>
        <div className="-mt-2 flex justify-end">
          <ForgotPasswordLink />
        </div>
        <AuthFormEnd label="Sign Up" isPending={signUp.isPending} error={errors.root?.server?.message ?? null} errorTestId="signup-error" />
      </form>
      <OrDivider />
      <GoogleButton label="Continue with Google" isEnabled={me.data?.googleEnabled ?? false} />
      <p className="text-center text-sm">
        <Link to={paths.login} state={location.state} className="link link-primary font-semibold">
          Already registered
        </Link>
      </p>
    </AuthCard>
  );
}
