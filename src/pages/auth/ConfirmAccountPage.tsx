import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'ra-core';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useStackdeckData } from '../../hooks';
import { isUuid } from '../../routes/referrer';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { CodeEntryForm } from './CodeEntryForm';

interface ConfirmationTarget {
  email: string;
  confirmed: boolean;
}

function ConfirmationCode({ uuid, email }: { uuid: string; email: string }) {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const navigate = useNavigate();
  const notify = useNotify();
  return (
    <CodeEntryForm
      info={
        <Alert severity="info" sx={{ mb: 1 }}>
          {translate('auth.confirm.sentTo', { email })}
        </Alert>
      }
      submitLabel={translate('auth.confirm.submit')}
      onCode={async (code) => {
        await dataProvider.action('users', 'confirm', { body: { uuid, code } });
        notify('auth.confirm.done', { type: 'success' });
        navigate('/login');
      }}
      resendLabel={translate('auth.confirm.resend')}
      onResend={async () => {
        await dataProvider.action('users', 'confirmationEmail', {
          query: { uuid, resend: 'true' },
        });
        notify('auth.confirm.resent', { type: 'info' });
      }}
    />
  );
}

/** /confirm-account?uuid=: the masked address the code went to, the code, and a resend. */
export default function ConfirmAccountPage() {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const [params] = useSearchParams();
  const uuid = params.get('uuid');
  const valid = isUuid(uuid);
  const target = useQuery({
    queryKey: ['users', 'confirmationEmail', uuid],
    queryFn: () =>
      dataProvider.action<ConfirmationTarget>('users', 'confirmationEmail', { query: { uuid } }),
    enabled: valid,
    retry: false,
  });

  let content;
  if (!valid) content = <Alert severity="warning">{translate('auth.confirm.missing')}</Alert>;
  else if (target.isPending)
    content = <LinearProgress aria-label={translate('auth.confirm.checking')} />;
  else if (target.isError)
    content = <Alert severity="error">{translate('auth.confirm.unknown')}</Alert>;
  else if (target.data.confirmed)
    content = <Alert severity="success">{translate('auth.confirm.already')}</Alert>;
  else content = <ConfirmationCode uuid={uuid} email={target.data.email} />;

  return (
    <AuthCard
      title={translate('auth.confirm.title')}
      footer={<AuthLink to="/login">{translate('auth.backToLogin')}</AuthLink>}
    >
      {content}
    </AuthCard>
  );
}
