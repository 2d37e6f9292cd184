import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useLogin, useTranslate } from 'ra-core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { loginBody } from '../../../resources/user-security';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { FormTextField, PasswordField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { SubmitButton } from './SubmitButton';
import { useSchemaForm } from './useSchemaForm';

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
  const { control, handleSubmit, setError, getValues, formState } = useSchemaForm(
    // Sign-in takes any address an account may have (admin@localhost too); only registration
    // checks the format.
    loginBody,
    {
      email: '',
      password: '',
    },
  );

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      await login({ email: values.email, password: values.password });
    } catch (error) {
      // An unconfirmed account answers 403 with the uuid to confirm it.
      const { status, body } = error as LoginError;
      if (status === 403 && typeof body?.uuid === 'string') {
        navigate(`/confirm-account?uuid=${encodeURIComponent(body.uuid)}`);
        return;
      }
      setAlert(applyServerErrors(error, setError, ['email', 'password']));
    }
  });

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
      <form onSubmit={onSubmit} noValidate>
        <FormAlert message={alert} />
        <FormTextField
          control={control}
          name="email"
          label={translate('auth.fields.email')}
          type="email"
          autoComplete="username"
          autoFocus
          required
        />
        <PasswordField
          control={control}
          name="password"
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
            onClick={() => setForgotOpen(true)}
            sx={{ fontWeight: 600 }}
          >
            {translate('auth.login.forgot')}
          </Link>
        </Box>
        <SubmitButton busy={formState.isSubmitting}>{translate('auth.login.submit')}</SubmitButton>
      </form>
      <ForgotPasswordDialog
        open={forgotOpen}
        initialEmail={getValues('email')}
        onClose={() => setForgotOpen(false)}
      />
    </AuthCard>
  );
}
