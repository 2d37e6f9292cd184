import { useMemo, useState } from 'react';
import { Button, Stack, TableCell, TableRow } from '@mui/material';
import Add from '@mui/icons-material/Add';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type RaRecord, useGetOne } from 'ra-core';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useDriftCheck } from '../../src/generic/DriftCheck';
import { EmptyState } from '../../src/generic/EmptyState';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { StatusCell } from '../../src/generic/StatusCell';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { useStackdeckData } from '../../src/hooks';
import type { Server } from '../../resources/servers';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { EnableMail } from './EnableMail';
import { DeleteDialog, ForwardDialog, PasswordDialog } from './MailboxDialogs';
import { type MailState, type Mailbox, mailUser } from './resource';

/** The spec's address of an app's mailboxes. */
export const emailsPath = (sid: number | string, app: number | string) => `/emails/${sid}/${app}`;

type Open = { kind: 'password' | 'forward' | 'delete'; mailbox: Mailbox } | null;

/**
 * /emails/{serverId}/{webAppId}: the mailboxes of the app's domains, paged; `?new` adds one.
 * While mail is off on the server, the page offers to enable it instead.
 */
export default function MailboxesPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const page = emailsPath(sid, appId);
  const appName = app ? String(app.name) : 'the app';
  const domains = useMemo(() => (app ? (app.domains as string[]) : []), [app]);
  const paging = usePaging();
  const [open, setOpen] = useState<Open>(null);
  const adding = new URLSearchParams(useLocation().search).has('new');
  const meta = { sid, appId, query: { wsid: appId } };

  const { data: server } = useGetOne<Server>('servers', { id: sid });
  const check = useDriftCheck(
    Boolean(server?.connected),
    "Compared with the server's mailboxes: one the server does not have is marked missing, one whose quota differs is marked changed. Saving it (a new password or quota) writes it again.",
  );
  const state = useQuery({
    queryKey: ['mail', sid],
    queryFn: ({ signal }) => dp.action<MailState>('mail', 'state', { params: { sid }, signal }),
  });
  const listKey = ['mail-user', sid, appId, paging.page, paging.perPage, check.checking];
  const mailboxes = useQuery({
    queryKey: listKey,
    enabled: Boolean(state.data?.enabled),
    queryFn: ({ signal }) =>
      dp.action<{ data: Mailbox[]; total: number }>('mail-user', 'list', {
        params: { sid, appId },
        query: {
          page: paging.page + 1,
          perPage: paging.perPage,
          sort: 'local',
          order: 'ASC',
          ...check.filter,
        },
        signal,
      }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mail-user', sid, appId] });
  // The form's domain is a choice among the app's domains.
  const withDomains = useMemo(
    () => ({
      ...mailUser,
      ui: {
        ...mailUser.ui,
        widgets: {
          ...mailUser.ui?.widgets,
          domain: {
            kind: 'choices' as const,
            choices: domains.map((d) => ({ label: d, value: d })),
          },
        },
      },
    }),
    [domains],
  );

  if (state.data && !state.data.enabled)
    return (
      <Stack spacing={2}>
        <PageHeader title="Email accounts" description={`Mailboxes on ${appName}'s domains.`} />
        <EnableMail sid={sid} state={state.data} />
      </Stack>
    );
  if (adding)
    return (
      <GenericCreate
        resource={withDomains}
        title="Add a mailbox"
        description={`An address on one of ${appName}'s domains; the first of a domain sets the domain up for mail (with a DKIM key).`}
        noun="The mailbox"
        meta={meta}
        saveLabel="Add mailbox"
        cancelTo={page}
        redirectTo={() => page}
        failedTo={page}
      />
    );

  const add = (
    <Button component={Link} to={`${page}?new`} variant="contained" startIcon={<Add />}>
      Add mailbox
    </Button>
  );
  const authLink = (
    <Button component={Link} to={`/email-authentication/${sid}/${appId}`} variant="outlined">
      Email authentication (DNS)
    </Button>
  );
  const close = () => {
    setOpen(null);
    void refresh();
  };
  const one = (m: Mailbox) => ({ sid, appId, mid: m.id });

  return (
    <Stack spacing={2}>
      <PageHeader
        title="Email accounts"
        description={`Mailboxes on ${appName}'s domains (${domains.join(', ')}).`}
        actions={
          <Stack direction="row" spacing={1}>
            {check.button}
            {authLink}
            {add}
          </Stack>
        }
      />
      {check.notice}
      <QueryTable
        // Mail off or its state unread: nothing to list (the state's failure is said here).
        query={{
          isPending: !state.error && (state.isPending || mailboxes.isPending),
          error: state.error ?? mailboxes.error,
          data: mailboxes.data?.data,
        }}
        failed="The mailboxes could not be read"
        empty={
          paging.page === 0 ? (
            <EmptyState
              title="No mailboxes yet"
              text={`A mailbox receives mail for an address on ${appName}'s domains, read over IMAP or in the webmail.`}
              icon={EmailOutlined}
              action={add}
            />
          ) : (
            'No mailboxes on this page.'
          )
        }
        label="Mailboxes"
        columns={['Address', 'Quota', 'Forwards to', 'Status', '']}
        footer={<TablePager paging={paging} total={mailboxes.data?.total} />}
      >
        {(rows) =>
          rows.map((m) => (
            <TableRow key={m.id}>
              <TableCell>{m.address}</TableCell>
              <TableCell>{m.quota_mb ? `${m.quota_mb} MB` : 'No limit'}</TableCell>
              <TableCell>
                {m.forward_to.length
                  ? `${m.forward_to.join(', ')}${m.keep_copy ? ' (keeps a copy)' : ''}`
                  : '—'}
              </TableCell>
              <TableCell>
                <StatusCell record={m as unknown as RaRecord} />
              </TableCell>
              <TableCell align="right">
                <Button size="small" onClick={() => setOpen({ kind: 'password', mailbox: m })}>
                  Change password
                </Button>
                <Button size="small" onClick={() => setOpen({ kind: 'forward', mailbox: m })}>
                  Forwarding
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => setOpen({ kind: 'delete', mailbox: m })}
                >
                  Delete
                </Button>
              </TableCell>
            </TableRow>
          ))
        }
      </QueryTable>
      {open?.kind === 'password' ? (
        <PasswordDialog
          mailbox={open.mailbox}
          onClose={close}
          save={(data) =>
            dp.update('mail-user', {
              id: open.mailbox.id,
              data,
              previousData: {},
              meta,
            } as never)
          }
        />
      ) : null}
      {open?.kind === 'forward' ? (
        <ForwardDialog
          mailbox={open.mailbox}
          onClose={close}
          save={(body) =>
            dp.action('mail-user', 'forward', {
              params: one(open.mailbox),
              query: { wsid: appId },
              body,
            })
          }
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <DeleteDialog
          mailbox={open.mailbox}
          onClose={close}
          remove={(deleteMail) =>
            dp.delete('mail-user', {
              id: open.mailbox.id,
              previousData: open.mailbox as unknown as RaRecord,
              meta: { sid, appId, query: { wsid: appId, delete_mail: String(deleteMail) } },
            })
          }
        />
      ) : null}
    </Stack>
  );
}
