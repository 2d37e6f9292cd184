import type { ReactNode } from 'react';
import { useState } from 'react';
import {
  Alert,
  Button,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { PageHeader } from '../../src/generic/PageHeader';
import { TablePager } from '../../src/generic/TablePager';
import { NoMailboxes, useAccountMailboxes } from './EmailAccountsPage';
import { type OpenMailbox, useFolders, useOpenMailbox } from './webmailClient';
import { errorMessage } from '../../src/generic/serverErrors';

/** The account's mailboxes to open in the webmail (only ready ones can be opened). */
function MailboxPicker({ onPick }: { onPick: (m: OpenMailbox) => void }) {
  const { paging, list } = useAccountMailboxes();
  const rows = list.data?.data ?? [];
  if (list.data && rows.length === 0 && paging.page === 0) return <NoMailboxes />;
  return (
    <Paper variant="outlined">
      {list.isPending ? <LinearProgress aria-label="Loading the mailboxes" /> : null}
      <List aria-label="Your mailboxes">
        {rows.map((m) => (
          <ListItemButton
            key={m.id}
            disabled={m.status !== 'active'}
            onClick={() => onPick({ sid: m.server_id, mid: m.id, address: m.address })}
          >
            <ListItemText
              primary={m.address}
              secondary={
                m.status === 'active'
                  ? `${m.webapp_name} on ${m.server_name}`
                  : `Not ready: ${m.status}`
              }
            />
          </ListItemButton>
        ))}
      </List>
      <TablePager paging={paging} total={list.data?.total} />
    </Paper>
  );
}

const mib = (kib: number) => `${(kib / 1024).toFixed(kib < 10_240 ? 1 : 0)} MB`;

/** The open mailbox's address and quota, and the way to another. */
function MailboxBar({ mailbox, onChange }: { mailbox: OpenMailbox; onChange: () => void }) {
  const folders = useFolders(mailbox);
  const quota = folders.data?.quota;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {mailbox.address}
      </Typography>
      {quota ? (
        <Typography variant="body2" color="text.secondary">
          {mib(quota.used_kib)} of {mib(quota.limit_kib)} used
        </Typography>
      ) : null}
      <Button size="small" onClick={onChange}>
        Open another mailbox
      </Button>
    </Stack>
  );
}

/**
 * Each page of the mailbox sidebar: the open mailbox and the page's content, or the account's
 * mailboxes to open one. A mailbox that cannot be opened (offline server, removed) says why.
 */
export function WebmailFrame({
  title,
  children,
}: {
  title: string;
  children: (mailbox: OpenMailbox) => ReactNode;
}) {
  const [mailbox, setMailbox] = useOpenMailbox();
  const [picking, setPicking] = useState(false);
  if (!mailbox || picking)
    return (
      <Stack spacing={2}>
        <PageHeader
          title="Webmail"
          description="Pick the mailbox to read. Only you, its owner, can open it here."
        />
        <MailboxPicker
          onPick={(m) => {
            setMailbox(m);
            setPicking(false);
          }}
        />
      </Stack>
    );
  return (
    <Stack spacing={2}>
      <PageHeader title={title} />
      <MailboxBar mailbox={mailbox} onChange={() => setPicking(true)} />
      <OpenError mailbox={mailbox} />
      {children(mailbox)}
    </Stack>
  );
}

function OpenError({ mailbox }: { mailbox: OpenMailbox }) {
  const folders = useFolders(mailbox);
  return folders.error ? <Alert severity="error">{errorMessage(folders.error)}</Alert> : null;
}
