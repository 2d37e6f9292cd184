import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useLogin, useTranslate } from 'ra-core';
import { type FormEvent, Suspense, lazy, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { AuthInput, PasswordInput } from './inputs';
import { FormAlert } from './FormAlert';
import { SubmitButton } from './SubmitButton';
import { useLoginForm } from './useLoginForm';

// Out of /login's first load (issue 22: under 200 KB): zod comes with the first check
// (useLoginForm), the dialog (and MUI's modal) when it opens.
const ForgotPasswordDialog = lazy(() =>
  import('./ForgotPasswordDialog').then((m) => ({ default: m.ForgotPasswordDialog })),
);

/** The declared login body, with the address checked as an address and a password required. */

interface LoginError {
  status?: number;
  body?: { uuid?: unknown } | null;
}

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const navigate = useNavigate();
  const [alert, setAlert] = useState<string | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  // Mounted from its first opening on, so it closes with its transition.
  const [forgotUsed, setForgotUsed] = useState(false);
  const form = useLoginForm((values) => login(values));

  const onSubmit = async (event: FormEvent) => {
    setAlert(null);
    const message = await form.submit(event, (error) => {
      // An unconfirmed account answers 403 with the uuid to confirm it.
      const { status, body } = error as LoginError;
      if (status !== 403 || typeof body?.uuid !== 'string') return false;
      navigate(`/confirm-account?uuid=${encodeURIComponent(body.uuid)}`);
      return true;
    });
    setAlert(message);
  };

  return (
    <AuthCard
      title={translate('auth.login.title')}
      subtitle={translate('auth.login.subtitle')}
      footer={
        <>
          {translate('auth.login.noAccount')}{' '}
          <AuthLink to="/register">{translate('auth.login.register')}</AuthLink>
        </>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <FormAlert message={alert} />
        <AuthInput
          {...form.field('email')}
          label={translate('auth.fields.email')}
          type="email"
          autoComplete="username"
          autoFocus
          required
        />
        <PasswordInput
          {...form.field('password')}
          label={translate('auth.fields.password')}
          autoComplete="current-password"
          required
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 0.5 }}>
          <Link
            component="button"
            type="button"
            underline="hover"
            variant="body2"
            onClick={() => {
              setForgotUsed(true);
              setForgotOpen(true);
            }}
            sx={{ fontWeight: 600 }}
          >
            {translate('auth.login.forgot')}
          </Link>
        </Box>
        <SubmitButton busy={form.busy}>{translate('auth.login.submit')}</SubmitButton>
      </form>
      {forgotUsed && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog
            open={forgotOpen}
            initialEmail={form.values.email}
            onClose={() => setForgotOpen(false)}
          />
        </Suspense>
      )}
    </AuthCard>
  );
}
