import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { registerBody } from '../../../resources/user-security';
import { useStackdeckData } from '../../hooks';
import { isUuid, recallReferrer } from '../../routes/referrer';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { FormTextField, PasswordField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { SubmitButton } from './SubmitButton';
import { useSchemaForm } from './useSchemaForm';

/**
 * Registration; the referrer is the route's uuid or the one remembered by the guard. The answer
 * is the same for a new address and one that has an account, so the page says "check your mail"
 * either way: the confirmation link (or, for a known address, the way to sign in) is in the mail.
 */
export default function RegisterPage() {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const { uuid } = useParams();
  const referrer = useMemo(() => (isUuid(uuid) ? uuid : recallReferrer()), [uuid]);
  const [alert, setAlert] = useState<string | null>(null);
  /** Where the mail went: the same answer whether the address is new or has an account. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useSchemaForm(registerBody, {
    user_name: '',
    email: '',
    password: '',
  });

  const onSubmit = handleSubmit(async (body) => {
    setAlert(null);
    try {
      const sent = await dataProvider.action<{ email: string }>('users', 'register', {
        body,
        query: { ref: referrer },
      });
      setSentTo(sent.email);
    } catch (error) {
      setAlert(applyServerErrors(error, setError, ['user_name', 'email', 'password']));
    }
  });

  if (sentTo) {
    return (
      <AuthCard
        title={translate('auth.register.sentTitle')}
        footer={<AuthLink to="/login">{translate('auth.backToLogin')}</AuthLink>}
      >
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {translate('auth.register.sent', { email: sentTo })}
        </Alert>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('auth.register.noMail')}
        </Typography>
        <Button variant="outlined" fullWidth onClick={() => setSentTo(null)}>
          {translate('auth.register.again')}
        </Button>
      </AuthCard>
    );
  }

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
