import Alert from '@mui/material/Alert';
import { useTranslate } from 'ra-core';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useStackdeckData } from '../../hooks';
import { isUuid } from '../../routes/referrer';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { CodeEntryForm } from './CodeEntryForm';

/** /confirm-account-for-password-reset?id=: checks the mailed code before a new password is chosen. */
export default function ConfirmResetPage() {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  return (
    <AuthCard
      title={translate('auth.confirmReset.title')}
      subtitle={isUuid(id) ? translate('auth.confirmReset.text') : undefined}
      footer={<AuthLink to="/login">{translate('auth.backToLogin')}</AuthLink>}
    >
      {isUuid(id) ? (
        <CodeEntryForm
          submitLabel={translate('auth.confirmReset.submit')}
          onCode={async (code) => {
            await dataProvider.action('users', 'resetPassword', { body: { id, code } });
            navigate(`/reset-password/${encodeURIComponent(id!)}?code=${code}`);
          }}
        />
      ) : (
        <Alert severity="warning">{translate('auth.confirmReset.missing')}</Alert>
      )}
    </AuthCard>
  );
}
