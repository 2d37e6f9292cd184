import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { CertUploadForm, type UploadValues } from './CertUploadForm';
import { sslPaths } from './links';
import { useAppCert } from './useAppCert';

/**
 * /install-ssl/{serverId}/{webAppId}: a certificate for the app — a free one from Let's
 * Encrypt for every domain of the app (the server answers the HTTP-01 challenge on port 80),
 * or the user's own, checked before anything is written.
 */
export default function InstallSslPage() {
  const { sid, appId, app, cert } = useAppCert();
  const dp = useStackdeckData();
  const notify = useNotify();
  const navigate = useNavigate();
  const [tab, setTab] = useState(0);
  const [email, setEmail] = useState('');
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  if (!app) return null;
  const done = (answer: { status?: string }) => {
    notify(
      answer.status === 'pending'
        ? 'The server is offline: the certificate is installed when it is back.'
        : 'The certificate is installed.',
      { type: 'success' },
    );
    navigate(sslPaths.list(sid, appId));
  };
  const issue = async () => {
    setBusy(true);
    setErrors({});
    setProblem(null);
    try {
      done(
        await dp.action<{ status: string }>('sslcerts', 'letsencrypt', {
          params: { sid },
          body: { webapp_id: appId, email: email.trim() || null, force_https: force },
        }),
      );
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (!fields.email) setProblem(errorMessage(error, 'No certificate was issued.'));
    } finally {
      setBusy(false);
    }
  };
  const upload = async (values: UploadValues) => {
    const { data } = await dp.create('sslcerts', {
      data: { webapp_id: appId, ...values },
      meta: { sid },
    });
    done(data as { status?: string });
  };
  return (
    <>
      <PageHeader
        title="Install SSL"
        description={`Serve ${app.name} over HTTPS: ${app.domains.join(', ')}.`}
      />
      {cert ? (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={() => navigate(sslPaths.list(sid, appId))}>
              See it
            </Button>
          }
        >
          {app.name} has a certificate already: delete it first to install another.
        </Alert>
      ) : null}
      <Card variant="outlined">
        <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 2 }}>
          <Tab label="Let's Encrypt" />
          <Tab label="Upload your own" />
        </Tabs>
        <CardContent>
          {tab === 0 ? (
            <Stack spacing={2} sx={{ maxWidth: 560 }}>
              <Typography variant="body2" color="text.secondary">
                A free certificate for every domain of the app, renewed automatically before it
                ends. Each domain must point at this server and port 80 must be open.
              </Typography>
              {problem ? (
                <Alert severity="error" role="alert">
                  {problem}
                </Alert>
              ) : null}
              <TextField
                label="E-mail for expiry notices (optional)"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                size="small"
                error={Boolean(errors.email)}
                helperText={errors.email}
              />
              <FormControlLabel
                control={<Switch checked={force} onChange={(_, on) => setForce(on)} />}
                label="Force HTTPS (plain HTTP redirects)"
              />
              <Box>
                <Button
                  variant="contained"
                  disabled={busy || Boolean(cert)}
                  onClick={() => void issue()}
                >
                  {busy ? 'Asking Let’s Encrypt…' : 'Issue certificate'}
                </Button>
              </Box>
            </Stack>
          ) : (
            <CertUploadForm
              submitLabel="Install certificate"
              withForce
              onSubmit={upload}
              onCancel={() => navigate(sslPaths.list(sid, appId))}
            />
          )}
        </CardContent>
      </Card>
    </>
  );
}
