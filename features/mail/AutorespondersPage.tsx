import { QueryTable } from '../../src/generic/QueryTable';
import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TableCell,
  TableRow,
  TextField,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../src/generic/PageHeader';
import { TablePager } from '../../src/generic/TablePager';
import { useStackdeckData } from '../../src/hooks';
import type { AccountMailbox } from './autorespondersResource';
import { NoMailboxes, useAccountMailboxes } from './EmailAccountsPage';
import { useSend } from './FormDialog';

const params = (m: AccountMailbox) => ({ sid: m.server_id, mid: m.id });

/** Dates, subject and text of a mailbox's autoresponder; the server's words at their field. */
function EditDialog({ mailbox, onClose }: { mailbox: AccountMailbox; onClose: () => void }) {
  const dp = useStackdeckData();
  const now = mailbox.autoresponder;
  const [subject, setSubject] = useState(now?.subject ?? '');
  const [body, setBody] = useState(now?.body ?? '');
  const [starts, setStarts] = useState(now?.starts ?? '');
  const [ends, setEnds] = useState(now?.ends ?? '');
  const [days, setDays] = useState(String(now?.days ?? 7));
  const { busy, fields, error, send } = useSend(onClose);
  const save = () =>
    send(() =>
      dp.action('mail-autoresponder', 'set', {
        params: params(mailbox),
        body: { subject, body, starts: starts || null, ends: ends || null, days: Number(days) },
      }),
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Autoresponder of {mailbox.address}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <Stack direction="row" spacing={2}>
            <TextField
              label="Starts"
              type="date"
              value={starts}
              onChange={(e) => setStarts(e.target.value)}
              error={Boolean(fields.starts)}
              helperText={fields.starts ?? 'Empty: from now'}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              label="Ends"
              type="date"
              value={ends}
              onChange={(e) => setEnds(e.target.value)}
              error={Boolean(fields.ends)}
              helperText={fields.ends ?? 'Empty: until removed'}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          <TextField
            label="Subject"
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
            error={Boolean(fields.subject)}
            helperText={fields.subject}
            required
          />
          <TextField
            label="Text"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            error={Boolean(fields.body)}
            helperText={fields.body}
            multiline
            minRows={4}
            required
          />
          <TextField
            label="Days between replies to one sender"
            type="number"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={Boolean(fields.days)}
            helperText={fields.days ?? '1 to 30'}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RemoveDialog({ mailbox, onClose }: { mailbox: AccountMailbox; onClose: () => void }) {
  const dp = useStackdeckData();
  const { busy, error, send } = useSend(onClose);
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>Remove the autoresponder of {mailbox.address}?</DialogTitle>
      <DialogContent>
        {error ? <Alert severity="error">{error}</Alert> : null}
        Mail to this address is no longer answered automatically.
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() =>
            void send(() => dp.action('mail-autoresponder', 'remove', { params: params(mailbox) }))
          }
        >
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const when = (a: NonNullable<AccountMailbox['autoresponder']>) =>
  `${a.starts ?? 'now'} – ${a.ends ?? 'no end'}`;

/** /autoresponders: every mailbox of the account with its autoresponder, set or removed here. */
export default function AutorespondersPage() {
  const { paging, list } = useAccountMailboxes();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<{ kind: 'edit' | 'remove'; mailbox: AccountMailbox } | null>(
    null,
  );
  const close = () => {
    setOpen(null);
    void queryClient.invalidateQueries({ queryKey: ['mail-account'] });
  };
  return (
    <Stack spacing={2}>
      <PageHeader
        title="Autoresponders"
        description="Automatic replies of your mailboxes, between two dates."
      />
      <QueryTable
        query={{ ...list, data: list.data?.data }}
        failed="The mailboxes could not be read"
        empty={paging.page === 0 ? <NoMailboxes /> : 'No mailboxes on this page.'}
        label="Autoresponders"
        columns={['Address', 'Autoresponder', 'Dates', '']}
        footer={<TablePager paging={paging} total={list.data?.total} />}
      >
        {(rows) =>
          rows.map((m) => (
            <TableRow key={m.id}>
              <TableCell>{m.address}</TableCell>
              <TableCell>{m.autoresponder ? m.autoresponder.subject : 'Off'}</TableCell>
              <TableCell>{m.autoresponder ? when(m.autoresponder) : '—'}</TableCell>
              <TableCell align="right">
                <Button size="small" onClick={() => setOpen({ kind: 'edit', mailbox: m })}>
                  {m.autoresponder ? 'Edit' : 'Set up'}
                </Button>
                {m.autoresponder ? (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setOpen({ kind: 'remove', mailbox: m })}
                  >
                    Remove
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          ))
        }
      </QueryTable>
      {open?.kind === 'edit' ? <EditDialog mailbox={open.mailbox} onClose={close} /> : null}
      {open?.kind === 'remove' ? <RemoveDialog mailbox={open.mailbox} onClose={close} /> : null}
    </Stack>
  );
}
