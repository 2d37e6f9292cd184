import { useState } from 'react';
import { Box, Button, Chip, Stack, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import DevicesOutlined from '@mui/icons-material/DevicesOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLogout, useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import type { SessionRecord } from '../../resources/sessions';
import { formatDateTime as when } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { describeUserAgent } from '../../src/generic/userAgent';
import { useStackdeckAuth, useStackdeckData } from '../../src/hooks';
import { ActingNotice } from '../../src/pages/account/ActingNotice';

/** What the confirmation is about: one session, or every session but this one. */
type Asking = { kind: 'one'; session: SessionRecord } | { kind: 'others' } | null;

/**
 * The account's active sign-in sessions (where, with what, until when), this one marked. Signing
 * one out ends it at once, live connections included; signing out this one ends at /login.
 */
export function SessionsCard() {
  const dataProvider = useStackdeckData();
  const acting = useStackdeckAuth().isActing();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const logout = useLogout();
  const [asking, setAsking] = useState<Asking>(null);
  const [busy, setBusy] = useState(false);
  const queryKey = ['sessions', 'list'];
  const sessions = useQuery({
    queryKey,
    enabled: !acting,
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: SessionRecord[]; total: number }>('sessions', 'list', {
        signal,
      }),
  });
  const list = sessions.data?.data ?? [];
  const others = list.filter((s) => !s.current).length;

  const confirm = async () => {
    if (!asking) return;
    setBusy(true);
    try {
      if (asking.kind === 'one') {
        await dataProvider.action('sessions', 'revoke', { params: { uuid: asking.session.id } });
        if (asking.session.current) {
          setAsking(null);
          await logout({}, '/login');
          return;
        }
        notify('Session signed out', { type: 'success' });
      } else {
        const { revoked } = await dataProvider.action<{ revoked: number }>(
          'sessions',
          'revokeOthers',
        );
        notify(revoked === 1 ? '1 session signed out' : `${revoked} sessions signed out`, {
          type: 'success',
        });
      }
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      notify(errorMessage(error, 'The session could not be signed out.'), { type: 'error' });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <Box sx={{ mb: 3 }}>
      <SectionCard
        id="active-sessions"
        title="Active sessions"
        subtitle="Where your account is signed in now. Sign out a session you do not recognise, then change your password."
        icon={DevicesOutlined}
        aside={
          acting ? null : (
            <Button
              size="small"
              variant="outlined"
              color="warning"
              disabled={busy || others === 0}
              onClick={() => setAsking({ kind: 'others' })}
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            >
              Sign out all other sessions
            </Button>
          )
        }
      >
        {acting ? <ActingNotice only="see or sign out the sessions" /> : null}
        {acting ? null : (
          <QueryTable
            query={{ ...sessions, data: sessions.data?.data }}
            failed="Your sessions could not be loaded."
            empty="No active sessions. Each sign-in opens one, until it expires or is signed out."
            emptyTestId="sessions-empty"
            label="Active sessions"
            columns={['Device', 'IP address', 'Signed in', 'Expires', '']}
          >
            {(list) => (
              <>
                {list.map((session) => (
                  <TableRow key={session.id} data-testid="session-row">
                    <TableCell>
                      <Stack
                        direction="row"
                        spacing={1}
                        useFlexGap
                        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                      >
                        <Tooltip title={session.user_agent}>
                          <Typography variant="body2">
                            {describeUserAgent(session.user_agent)}
                          </Typography>
                        </Tooltip>
                        {session.current ? (
                          <Chip size="small" color="success" label="This session" />
                        ) : null}
                        {session.by_admin ? (
                          <Chip size="small" variant="outlined" label="Admin acting as you" />
                        ) : null}
                      </Stack>
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{session.ip}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(session.created_at)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(session.expires_at)}</TableCell>
                    <TableCell align="right">
                      <Button
                        color="error"
                        size="small"
                        disabled={busy}
                        onClick={() => setAsking({ kind: 'one', session })}
                        // The name starts with what the button shows (WCAG 2.5.3), then says which.
                        aria-label={
                          session.current
                            ? 'Revoke: sign out this session'
                            : `Revoke: sign out ${describeUserAgent(session.user_agent)} from ${session.ip}`
                        }
                      >
                        Revoke
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </>
            )}
          </QueryTable>
        )}
      </SectionCard>
      <Confirm
        isOpen={asking !== null}
        loading={busy}
        title={
          asking?.kind === 'others' ? 'Sign out all other sessions?' : 'Sign out this session?'
        }
        content={
          asking?.kind === 'others'
            ? 'Every other browser and device signed in to your account is signed out at once. This one stays signed in.'
            : asking?.session.current
              ? 'This is the browser you are using: you will be signed out and taken to the sign-in page.'
              : asking
                ? `${describeUserAgent(asking.session.user_agent)} from ${asking.session.ip} is signed out at once.`
                : ''
        }
        confirm={asking?.kind === 'others' ? 'Sign out others' : 'Revoke'}
        confirmColor="warning"
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      />
    </Box>
  );
}
