import Alert from '@mui/material/Alert';
import { useNotify, useTranslate } from 'ra-core';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { registerBody } from '../../../resources/user-security';
import { useStackdeckData } from '../../hooks';
import { isUuid } from '../../routes/referrer';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { PasswordField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { SubmitButton } from './SubmitButton';
import { useSchemaForm } from './useSchemaForm';

const passwordForm = registerBody.pick({ password: true });

/** /reset-password/:id?code=: sets the new password with the code checked on the step before. */
export default function ResetPasswordPage() {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const navigate = useNavigate();
  const notify = useNotify();
  const { id } = useParams();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const usable = isUuid(id) && /^\d{6}$/.test(code);
  const [alert, setAlert] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useSchemaForm(passwordForm, {
    password: '',
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setAlert(null);
    try {
      await dataProvider.action('users', 'resetPassword', { body: { id, code, password } });
      notify('auth.reset.done', { type: 'success' });
      navigate('/login');
    } catch (error) {
      // A code that expired meanwhile has no input here: the alert says so.
      setAlert(applyServerErrors(error, setError, ['password']));
    }
  });

  return (
    <AuthCard
      title={translate('auth.reset.title')}
      subtitle={usable ? translate('auth.reset.text') : undefined}
      footer={<AuthLink to="/login">{translate('auth.backToLogin')}</AuthLink>}
    >
      {usable ? (
        <form onSubmit={onSubmit} noValidate>
          <FormAlert message={alert} />
          <PasswordField
            control={control}
            name="password"
            label={translate('auth.fields.newPassword')}
            autoComplete="new-password"
            helperText={translate('auth.passwordHint')}
            autoFocus
            required
          />
          <SubmitButton busy={formState.isSubmitting}>
            {translate('auth.reset.submit')}
          </SubmitButton>
        </form>
      ) : (
        <Alert severity="warning">{translate('auth.confirmReset.missing')}</Alert>
      )}
    </AuthCard>
  );
}
