import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
} from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { errorMessage } from '../../src/generic/serverErrors';
import { MessageView } from './MessageView';
import { WebmailFrame } from './WebmailFrame';
import {
  FOLDER_PAGES,
  type OpenMailbox,
  useMessages,
  useRefresh,
  useWebmail,
} from './webmailClient';
import type { MessageSummary } from './webmailOps';

const PAGE_SIZES = [25, 50, 100];

export const sender = (m: Pick<MessageSummary, 'from'>) =>
  m.from.map((p) => p.name || p.address).join(', ') || '(no sender)';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** Where a selection may go from this folder (never to where it is). */
const MOVES: { to: string; label: string }[] = [
  { to: 'inbox', label: 'To inbox' },
  { to: 'archive', label: 'Archive' },
  { to: 'spam', label: 'Spam' },
];

function MessageList({ mailbox, folder }: { mailbox: OpenMailbox; folder: string }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(25);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const call = useWebmail(mailbox);
  const refresh = useRefresh(mailbox);
  const list = useMessages(mailbox, { folder, page: page + 1, per_page: perPage, search });
  const rows = list.data?.messages ?? [];
  const open = (m: MessageSummary) =>
    folder === 'drafts'
      ? navigate(`/compose-mail?draft=${m.uid}`)
      : setParams({ uid: String(m.uid) });

  const act = async (action: string, body: object) => {
    setFailure(null);
    try {
      await call(action, { body: { folder, uids: picked, ...body } });
      setPicked([]);
      await refresh();
    } catch (e) {
      setFailure(errorMessage(e));
    }
  };
  const final = folder === 'trash' || folder === 'spam';

  if (params.get('uid'))
    return (
      <MessageView
        mailbox={mailbox}
        folder={folder}
        uid={Number(params.get('uid'))}
        onBack={() => setParams({})}
      />
    );
  return (
    <Stack spacing={1}>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setSearch(typed.trim());
        }}
      >
        <TextField
          size="small"
          sx={{ flex: '1 1 320px', maxWidth: 480 }}
          label="Search sender, subject and text"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <Button type="submit">Search</Button>
        {picked.length ? (
          <>
            <Button onClick={() => void act('flag', { seen: true })}>Mark read</Button>
            <Button onClick={() => void act('flag', { seen: false })}>Mark unread</Button>
            {MOVES.filter((m) => m.to !== folder).map((m) => (
              <Button key={m.to} onClick={() => void act('move', { to: m.to })}>
                {m.label}
              </Button>
            ))}
            <Button color="error" onClick={() => void act('delete', {})}>
              {final ? 'Delete for good' : 'Delete'}
            </Button>
          </>
        ) : null}
      </Stack>
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      {list.isFetching ? <LinearProgress aria-label="Loading the messages" /> : null}
      {list.data && rows.length === 0 ? (
        <EmptyState
          title={search ? 'No message matches' : 'No messages here'}
          text={search ? `Nothing in this folder mentions “${search}”.` : 'This folder is empty.'}
        />
      ) : null}
      {rows.length ? (
        <Table size="small" aria-label="Messages">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  slotProps={{ input: { 'aria-label': 'Select every message of the page' } }}
                  checked={picked.length === rows.length}
                  indeterminate={picked.length > 0 && picked.length < rows.length}
                  onChange={(e) => setPicked(e.target.checked ? rows.map((m) => m.uid) : [])}
                />
              </TableCell>
              <TableCell>{folder === 'sent' || folder === 'drafts' ? 'To' : 'From'}</TableCell>
              <TableCell>Subject</TableCell>
              <TableCell>Date</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((m) => (
              <TableRow
                key={m.uid}
                hover
                sx={{ cursor: 'pointer', '& td': { fontWeight: m.seen ? 400 : 700 } }}
                onClick={() => open(m)}
              >
                <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    slotProps={{ input: { 'aria-label': `Select “${m.subject}”` } }}
                    checked={picked.includes(m.uid)}
                    onChange={(e) =>
                      setPicked(
                        e.target.checked ? [...picked, m.uid] : picked.filter((u) => u !== m.uid),
                      )
                    }
                  />
                </TableCell>
                <TableCell>
                  {folder === 'sent' || folder === 'drafts'
                    ? m.to.map((p) => p.address).join(', ')
                    : sender(m)}
                </TableCell>
                <TableCell>
                  <Button
                    variant="text"
                    size="small"
                    sx={{ textTransform: 'none', fontWeight: 'inherit', p: 0 }}
                    onClick={(e) => {
                      e.stopPropagation();
                      open(m);
                    }}
                  >
                    {m.subject || '(no subject)'}
                  </Button>
                  {m.has_attachments ? (
                    <AttachFile fontSize="inherit" aria-label="Has attachments" />
                  ) : null}
                </TableCell>
                <TableCell>{when(m.date)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      <TablePagination
        component="div"
        count={list.data?.total ?? 0}
        page={page}
        rowsPerPage={perPage}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_, p) => {
          setPicked([]);
          setPage(p);
        }}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
      {list.error ? <Alert severity="error">{errorMessage(list.error)}</Alert> : null}
    </Stack>
  );
}

/**
 * /check-mail, /drafts, /sent-mail, /spam, /trash, /archive: a folder of the open mailbox,
 * newest first, paged, searched; a message read in place (`?uid=`), a draft opened in compose.
 */
export default function FolderPage() {
  const { pathname } = useLocation();
  const page = FOLDER_PAGES[pathname] ?? FOLDER_PAGES['/check-mail']!;
  return (
    <WebmailFrame title={page.title}>
      {(mailbox) => <MessageList key={page.folder} mailbox={mailbox} folder={page.folder} />}
    </WebmailFrame>
  );
}
