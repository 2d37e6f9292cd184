import { Alert, Card, CardContent } from '@mui/material';
import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { useStackdeckData } from '../../src/hooks';
import { CertUploadForm, type UploadValues } from './CertUploadForm';
import { sslPaths } from './links';
import { useAppCert } from './useAppCert';

/**
 * /update-certificate/{serverId}/{webAppId}: a new certificate and key for the app's uploaded
 * certificate, checked as the first one was; the old one serves until the new one is in.
 */
export default function UpdateCertificatePage() {
  const { sid, appId, app, cert, loading } = useAppCert();
  const dp = useStackdeckData();
  const notify = useNotify();
  const navigate = useNavigate();
  if (!app || loading) return null;
  const back = () => navigate(sslPaths.list(sid, appId));
  const save = async (values: UploadValues) => {
    if (!cert) return;
    await dp.update('sslcerts', { id: cert.id, data: values, previousData: cert, meta: { sid } });
    notify('The certificate was replaced.', { type: 'success' });
    back();
  };
  return (
    <>
      <PageHeader title="Update certificate" description={`The certificate ${app.name} serves.`} />
      {!cert || cert.type !== 'custom' ? (
        <Alert severity="info">
          {cert
            ? "A Let's Encrypt certificate is renewed, not replaced: renew it from the certificates page."
            : `${app.name} has no uploaded certificate to replace.`}
        </Alert>
      ) : (
        <Card variant="outlined">
          <CardContent>
            <CertUploadForm
              submitLabel="Replace certificate"
              withForce={false}
              onSubmit={save}
              onCancel={back}
            />
          </CardContent>
        </Card>
      )}
    </>
  );
}
