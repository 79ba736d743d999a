import { useState } from 'react';
import { Link, useLocation } from '@/lib/router.tsx';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signInInputSchema, type SignInInput } from '@bulkcart/contracts/account';
import { paths } from '@bulkcart/contracts/routes';
import { ApiError } from '@/lib/api-client.ts';
import { useMe } from '@/lib/auth/me.ts';
import { useSignIn } from '@/features/auth/api/sign-in.ts';
import { AuthCard, AuthFormEnd, ForgotPasswordLink, OrDivider } from '@/features/auth/components/auth-card.tsx';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { PasswordInput } from '@/components/form/password-input.tsx';
import { GoogleButton } from '@/features/auth/components/google-button.tsx';

export function LoginPage() {
  const me = useMe();
  const location = useLocation();
  const signIn = useSignIn();
  const [formError, setFormError] = useState<string | null>(null);
  const demoLogin = me.data?.demoLogin ?? null;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignInInput>({
    resolver: zodResolver(signInInputSchema),
    defaultValues: { email: demoLogin?.email ?? '', password: demoLogin?.password ?? '' },
  });

  const onSubmit = handleSubmit((input) => {
    setFormError(null);
    // On success RedirectIfSignedIn moves on to the page the user came from (see useSignIn).
    signIn.mutate(input, {
      onError: (error) => {
        // Too many tries: the notice is the spec's, but the wait deserves saying where it stays.
        if (error instanceof ApiError && error.status === 429) setFormError(error.message);
      },
    });
  });

  return (
    <AuthCard title="Sign In" subtitle="Welcome back to BulkCart wholesale">
      {demoLogin ? (
        <p className="rounded-box bg-info/10 px-3 py-2 text-sm" data-testid="demo-login-hint">
          Demo mode: the form is filled in with the demo buyer account.
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Sign In">
        <FormField id="login-email" label="Email" error={errors.email?.message}>
          <input
            {...register('email')}
            {...fieldAria('login-email', errors.email?.message)}
            type="email"
            autoComplete="email"
            className={inputClass(Boolean(errors.email))}
            placeholder="you@company.com"
          />
        </FormField>
        <FormField id="login-password" label="Password" error={errors.password?.message}>
          <PasswordInput {...register('password')} {...fieldAria('login-password', errors.password?.message)} autoComplete="current-password" />
        </FormField>
        <div className="-mt-2 flex justify-end">
          <ForgotPasswordLink />
        </div>
        <AuthFormEnd label="Sign In" isPending={signIn.isPending} error={formError} />
      </form>
      <OrDivider />
      <GoogleButton label="Login with Google" isEnabled={me.data?.googleEnabled ?? false} />
      <p className="text-center text-sm">
        New to BulkCart?{' '}
        <Link to={paths.signup} state={location.state} className="link link-primary font-semibold">
          Create Account
        </Link>
      </p>
    </AuthCard>
  );
}
