import { QueryTable } from '../../src/generic/QueryTable';
import { Button, Link as MuiLink, Stack, TableCell, TableRow } from '@mui/material';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { useStackdeckData } from '../../src/hooks';
import type { AccountMailbox } from './autorespondersResource';
import { emailsPath } from './MailboxesPage';
import { useOpenMailbox } from './webmailClient';

/** The account's mailboxes, one page of them (the autoresponders page reads the same list). */
export function useAccountMailboxes() {
  const dp = useStackdeckData();
  const paging = usePaging();
  const list = useQuery({
    queryKey: ['mail-account', paging.page, paging.perPage],
    queryFn: ({ signal }) =>
      dp.action<{ data: AccountMailbox[]; total: number }>('mail-account', 'list', {
        query: { page: paging.page + 1, perPage: paging.perPage },
        signal,
      }),
  });
  return { paging, list };
}

/** Said where the account has no mailbox: mail is per app, enabled on its own page. */
export function NoMailboxes() {
  return (
    <EmptyState
      title="No email accounts yet"
      text="Mail is enabled per web app: open an app and its Email accounts page to add mailboxes on its domains."
      icon={EmailOutlined}
      action={
        <MuiLink component={Link} to="/web-applications">
          Your web applications
        </MuiLink>
      }
    />
  );
}

/** /email-accounts: every mailbox of the account across its servers and apps, paged. */
export default function EmailAccountsPage() {
  const { paging, list } = useAccountMailboxes();
  const [, setOpenMailbox] = useOpenMailbox();
  const navigate = useNavigate();
  const read = (m: AccountMailbox) => {
    setOpenMailbox({ sid: m.server_id, mid: m.id, address: m.address });
    navigate('/check-mail');
  };
  return (
    <Stack spacing={2}>
      <PageHeader
        title="Email accounts"
        description="Every mailbox of your account, across your servers and web apps."
      />
      <QueryTable
        query={{ ...list, data: list.data?.data }}
        failed="The mailboxes could not be read"
        empty={paging.page === 0 ? <NoMailboxes /> : 'No mailboxes on this page.'}
        label="Email accounts"
        columns={['Address', 'Server', 'App', 'Quota', '']}
        footer={<TablePager paging={paging} total={list.data?.total} />}
      >
        {(rows) =>
          rows.map((m) => (
            <TableRow key={m.id}>
              <TableCell>
                <MuiLink component={Link} to={emailsPath(m.server_id, m.webapp_id)}>
                  {m.address}
                </MuiLink>
              </TableCell>
              <TableCell>{m.server_name}</TableCell>
              <TableCell>{m.webapp_name}</TableCell>
              <TableCell>{m.quota_mb ? `${m.quota_mb} MB` : 'No limit'}</TableCell>
              <TableCell align="right">
                <Button size="small" disabled={m.status !== 'active'} onClick={() => read(m)}>
                  Read mail
                </Button>
              </TableCell>
            </TableRow>
          ))
        }
      </QueryTable>
    </Stack>
  );
}
