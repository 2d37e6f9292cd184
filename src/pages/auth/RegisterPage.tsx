import Alert from '@mui/material/Alert';
import { useTranslate } from 'ra-core';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { registerBody } from '../../../resources/users';
import { useStackdeckData } from '../../hooks';
import { isUuid, recallReferrer } from '../../routes/referrer';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { FormTextField, PasswordField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { SubmitButton } from './SubmitButton';
import { useSchemaForm } from './useSchemaForm';

/** Registration; the referrer is the route's uuid or the one remembered by the guard. */
export default function RegisterPage() {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const navigate = useNavigate();
  const { uuid } = useParams();
  const referrer = useMemo(() => (isUuid(uuid) ? uuid : recallReferrer()), [uuid]);
  const [alert, setAlert] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useSchemaForm(registerBody, {
    user_name: '',
    email: '',
    password: '',
  });

  const onSubmit = handleSubmit(async (body) => {
    setAlert(null);
    try {
      const created = await dataProvider.action<{ uuid: string }>('users', 'register', {
        body,
        query: { ref: referrer },
      });
      navigate(`/confirm-account?uuid=${encodeURIComponent(created.uuid)}`);
    } catch (error) {
      setAlert(applyServerErrors(error, setError, ['user_name', 'email', 'password']));
    }
  });

  return (
    <AuthCard
      title={translate('auth.register.title')}
      subtitle={translate('auth.register.subtitle')}
      footer={
        <>
          {translate('auth.register.haveAccount')}{' '}
          <AuthLink to="/login">{translate('auth.register.login')}</AuthLink>
        </>
      }
    >
      {referrer && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {translate('auth.register.referred')}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <FormAlert message={alert} />
        <FormTextField
          control={control}
          name="user_name"
          label={translate('auth.fields.userName')}
          autoComplete="name"
          autoFocus
          required
        />
        <FormTextField
          control={control}
          name="email"
          label={translate('auth.fields.email')}
          type="email"
          autoComplete="email"
          required
        />
        <PasswordField
          control={control}
          name="password"
          label={translate('auth.fields.password')}
          autoComplete="new-password"
          helperText={translate('auth.passwordHint')}
          required
        />
        <SubmitButton busy={formState.isSubmitting}>
          {translate('auth.register.submit')}
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
