import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { useNotify } from 'ra-core';
import { Link } from 'react-router-dom';
import { ConfirmDeleteButton } from '../../src/generic/ConfirmDeleteButton';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { StatusCell } from '../../src/generic/StatusCell';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { RenewalRow, SelfSignedNotice } from './CertRenewal';
import { sslPaths } from './links';
import { useAppCert } from './useAppCert';

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');
const daysLeft = (iso: string | null) =>
  iso ? Math.floor((new Date(iso).getTime() - Date.now()) / 86_400_000) : null;

/**
 * /ssl-certificates/{serverId}/{webAppId}: the app's certificate — the names it covers, who
 * issued it and until when — with force HTTPS, renew (Let's Encrypt), replace (uploaded) and
 * delete; without one, the way to install it.
 */
export default function SslCertificatesPage() {
  const { sid, appId, app, cert, loading, refetchCert } = useAppCert();
  const dp = useStackdeckData();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!app || loading) return null;
  const install = (
    <Button
      component={Link}
      to={sslPaths.install(sid, appId)}
      variant="contained"
      startIcon={<Add />}
    >
      Install SSL
    </Button>
  );
  const run = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await what();
      notify(done, { type: 'success' });
    } catch (error) {
      setProblem(errorMessage(error, 'The certificate could not be changed.'));
    } finally {
      setBusy(false);
      await refetchCert();
    }
  };
  const left = cert ? daysLeft(cert.not_after) : null;
  return (
    <>
      <PageHeader
        title="SSL certificates"
        description={`HTTPS for ${app.name}.`}
        actions={cert ? undefined : install}
      />
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      {!cert ? (
        <Card variant="outlined">
          <EmptyState
            title="No certificate yet"
            text={`${app.name} is served over plain HTTP. Install a free Let's Encrypt certificate, or upload your own.`}
            icon={LockOutlined}
            action={install}
          />
        </Card>
      ) : (
        <Card variant="outlined">
          <CardContent>
            {cert.status === 'pending' ? (
              <Alert severity="info" sx={{ mb: 2 }}>
                Waiting for the server: the certificate is installed when it answers.
              </Alert>
            ) : null}
            <SelfSignedNotice cert={cert} />
            <Table size="small" sx={{ mb: 2, maxWidth: 720 }}>
              <TableBody>
                <TableRow>
                  <TableCell component="th">Names</TableCell>
                  <TableCell>{cert.names.join(', ')}</TableCell>
                </TableRow>
                <TableRow>
                  <TableCell component="th">Type</TableCell>
                  <TableCell>
                    {cert.type === 'letsencrypt' ? "Let's Encrypt" : 'Uploaded'}
                  </TableCell>
                </TableRow>
                <TableRow>
                  <TableCell component="th">Issuer</TableCell>
                  <TableCell>
                    {cert.issuer ?? '—'}{' '}
                    {cert.self_signed ? (
                      <Chip size="small" color="warning" label="self-signed" />
                    ) : null}
                  </TableCell>
                </TableRow>
                <TableRow>
                  <TableCell component="th">Valid</TableCell>
                  <TableCell>
                    {day(cert.not_before)} to {day(cert.not_after)}{' '}
                    {left !== null ? (
                      <Chip
                        size="small"
                        color={left < 0 ? 'error' : left < 14 ? 'warning' : 'success'}
                        label={left < 0 ? 'expired' : `${left} days left`}
                      />
                    ) : null}
                  </TableCell>
                </TableRow>
                <RenewalRow cert={cert} sid={sid} />
                <TableRow>
                  <TableCell component="th">Status</TableCell>
                  <TableCell>
                    <StatusCell record={cert} />
                  </TableCell>
                </TableRow>
              </TableBody>
            </Table>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
              <Switch
                checked={cert.force_https}
                disabled={busy || cert.status === 'deleting'}
                slotProps={{ input: { 'aria-label': 'Force HTTPS' } }}
                onChange={(_, on) =>
                  void run(
                    () =>
                      dp.update('sslcerts', {
                        id: cert.id,
                        data: { force_https: on },
                        previousData: cert,
                        meta: { sid },
                      }),
                    on ? 'Plain HTTP now redirects to HTTPS.' : 'Plain HTTP is served again.',
                  )
                }
              />
              <Typography>Force HTTPS</Typography>
            </Stack>
            <Stack direction="row" spacing={1}>
              {cert.type === 'letsencrypt' ? (
                <Button
                  variant="outlined"
                  disabled={busy || cert.status === 'deleting'}
                  onClick={() =>
                    void run(
                      () => dp.action('sslcerts', 'renew', { params: { sid, certId: cert.id } }),
                      'The certificate was renewed.',
                    )
                  }
                >
                  {busy ? 'Working…' : 'Renew now'}
                </Button>
              ) : (
                <Button
                  variant="outlined"
                  component={Link}
                  to={sslPaths.update(sid, appId)}
                  disabled={busy}
                >
                  Replace certificate
                </Button>
              )}
              <ConfirmDeleteButton
                resource="sslcerts"
                record={cert}
                what={`the certificate of ${app.name}`}
                meta={{ sid }}
                consequence={`${app.name} is served over plain HTTP again; the certificate and its key are removed from the server.`}
                disabled={busy}
                onDeleted={() => void refetchCert()}
              />
            </Stack>
          </CardContent>
        </Card>
      )}
    </>
  );
}
