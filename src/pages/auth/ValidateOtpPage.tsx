import Alert from '@mui/material/Alert';
import { useLogin, useNotify, useTranslate } from 'ra-core';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useStackdeckAuth } from '../../hooks';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { CodeEntryForm } from './CodeEntryForm';

/**
 * The second sign-in step: the credentials wait in memory (authProvider.pendingLogin()), the
 * code was mailed or comes from the authenticator app. Without a pending sign-in: /login.
 */
export default function ValidateOtpPage() {
  const translate = useTranslate();
  const auth = useStackdeckAuth();
  const login = useLogin();
  const notify = useNotify();
  const [pending] = useState(() => auth.pendingLogin());
  if (!pending) return <Navigate to="/login" replace />;

  return (
    <AuthCard
      title={translate('auth.otp.title')}
      footer={<AuthLink to="/login">{translate('auth.otp.other')}</AuthLink>}
    >
      <CodeEntryForm
        info={
          <Alert severity="info" sx={{ mb: 1 }} data-testid="otp-method">
            {translate(pending.method === 'email' ? 'auth.otp.mailed' : 'auth.otp.totp')}
          </Alert>
        }
        submitLabel={translate('auth.otp.submit')}
        onCode={(code) => login({ email: pending.email, password: pending.password, otp: code })}
        resendLabel={translate('auth.otp.resend')}
        // Signing in again without a code mails a fresh one.
        onResend={
          pending.method === 'email'
            ? async () => {
                await auth.login({ email: pending.email, password: pending.password });
                notify('auth.otp.resent', { type: 'info' });
              }
            : undefined
        }
      />
    </AuthCard>
  );
}
