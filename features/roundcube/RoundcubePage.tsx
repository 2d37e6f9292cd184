import { useState } from 'react';
import {
  Alert,
  Button,
  Link,
  Snackbar,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import MailOutline from '@mui/icons-material/MailOutline';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Link as RouterLink } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { useApp } from '../webapps/pagesApi';
import { type RoundcubeSsoOpen, type RoundcubeSsoState, launchUrl } from './ssoResource';

/**
 * /roundcube/{serverId}/{webAppId}: a Roundcube app's address and the mailboxes of its server,
 * each opened in Roundcube signed in, without its password. The tab is opened on the click (a
 * tab opened after the answer would be a blocked pop-up), cut off from this page, and sent to
 * the panel's launcher, which posts the token to Roundcube from a form.
 */
export default function RoundcubePage() {
  const { sid, appId, app, error } = useApp();
  const dp = useStackdeckData();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const isRoundcube = app?.webapp_type === 'roundcube';
  const state = useQuery({
    queryKey: ['roundcube-sso', sid, appId],
    queryFn: ({ signal }) =>
      dp.action<RoundcubeSsoState>('roundcube-sso', 'state', { params: { sid, appId }, signal }),
    enabled: isRoundcube,
    retry: false,
  });
  if ((error as { status?: number } | null)?.status === 404) return <Navigate to="/404" replace />;
  if (!app) return null;

  const open = async (mailbox: { id: number; address: string }) => {
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    setBusy(mailbox.id);
    try {
      const answer = await dp.action<RoundcubeSsoOpen>('roundcube-sso', 'open', {
        params: { sid, appId },
        body: { mailbox_id: mailbox.id },
      });
      const to = launchUrl(answer.url, answer.token);
      if (tab) tab.location.href = to;
      else window.location.assign(to);
    } catch (e) {
      tab?.close();
      setFailure(errorMessage(e, `${mailbox.address} could not be opened in Roundcube.`));
    } finally {
      setBusy(null);
    }
  };

  const data = state.data;
  return (
    <>
      <PageHeader
        title="Roundcube"
        description={`${app.name} — ${app.domains[0] ?? ''}`}
        actions={
          data ? (
            <Button
              variant="outlined"
              endIcon={<OpenInNew fontSize="small" />}
              href={data.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              Sign-in page
            </Button>
          ) : null
        }
      />
      {!isRoundcube ? (
        <Alert severity="info">
          {app.name} is not a Roundcube app: this page is for apps made by the Roundcube installer.
        </Alert>
      ) : state.error ? (
        <Alert severity="error">
          {errorMessage(state.error, 'The mailboxes could not be read.')}
        </Alert>
      ) : data ? (
        <SectionCard
          id="roundcube-mailboxes"
          title="Mailboxes"
          icon={MailOutline}
          subtitle={
            <>
              Roundcube at{' '}
              <Link href={data.url} target="_blank" rel="noopener noreferrer">
                {data.url}
              </Link>{' '}
              signs in to this server&apos;s mail. Open a mailbox there without its password: the
              sign-in link is good once, for a minute, and is in your activity log.
            </>
          }
        >
          {!data.can_open ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              Only the server&apos;s owner can open its mailboxes in Roundcube. Others sign in with
              the mailbox&apos;s password on the sign-in page.
            </Alert>
          ) : null}
          {data.mailboxes.length === 0 ? (
            <Typography color="text.secondary">
              This server has no mailboxes yet: add them on an app&apos;s{' '}
              <Link component={RouterLink} to={`/emails/${sid}/${appId}`}>
                Email accounts
              </Link>{' '}
              page.
            </Typography>
          ) : (
            <Table size="small" aria-label="Mailboxes">
              <TableHead>
                <TableRow>
                  <TableCell>Mailbox</TableCell>
                  <TableCell align="right" />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.mailboxes.map((m) => (
                  <TableRow key={m.id}>
                    <TableCell>
                      {m.address}
                      {m.status !== 'active' ? (
                        <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
                          ({m.status})
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        aria-label={`Open ${m.address} in Roundcube`}
                        endIcon={<OpenInNew fontSize="small" />}
                        disabled={!data.can_open || m.status !== 'active' || busy !== null}
                        onClick={() => void open(m)}
                      >
                        {busy === m.id ? 'Opening…' : 'Open in Roundcube'}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </SectionCard>
      ) : null}
      <Snackbar open={failure !== null} autoHideDuration={8000} onClose={() => setFailure(null)}>
        <Alert severity="error" onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      </Snackbar>
    </>
  );
}
