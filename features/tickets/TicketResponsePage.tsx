import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import AttachFile from '@mui/icons-material/AttachFile';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, useNotify } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import { type AttachmentInput, type TicketThread, replyBody } from '../../resources/tickets';
import { LoadError, NotFoundState } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { formatDateTime } from '../../src/generic/format';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { errorMessage } from '../../src/generic/serverErrors';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { AttachmentPicker, downloadAttachment, kb } from './attachments';
import { PriorityChip, StatusChip } from './chips';

const resolver = schemaResolver(replyBody.omit({ attachments: true }));

/** /ticket-response/{id}: the thread, a reply box, close and reopen, downloadable files. */
export default function TicketResponsePage() {
  const { id } = useParams();
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<AttachmentInput[]>([]);
  const [generation, setGeneration] = useState(0);
  const [confirmClose, setConfirmClose] = useState(false);
  const ticketId = Number(id);
  const validId = Number.isInteger(ticketId) && ticketId > 0;
  const key = ['tickets', 'thread', id];
  const {
    data: ticket,
    error,
    isPending,
  } = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await dp.getOne<TicketThread & { id: number }>('tickets', { id: ticketId })).data,
    enabled: validId,
  });
  const refresh = (next: TicketThread) => {
    queryClient.setQueryData(key, next);
    void queryClient.invalidateQueries({ queryKey: ['tickets'] });
  };
  const onReply = useSubmitHandler<{ message: string }>(
    ['message', 'attachments'],
    async (values) => {
      const next = await dp.action<TicketThread>('tickets', 'reply', {
        params: { id },
        body: { ...values, attachments: files },
      });
      refresh(next);
      setFiles([]);
      setGeneration((n) => n + 1);
    },
    'Reply sent.',
  );
  const setStatus = async (status: 'open' | 'closed') => {
    try {
      await dp.action('tickets', 'setStatus', { params: { id }, body: { status } });
      await queryClient.invalidateQueries({ queryKey: ['tickets'] });
      notify(status === 'closed' ? 'Ticket closed.' : 'Ticket reopened.', { type: 'success' });
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    }
  };

  const back = { to: '/ticket-list', label: 'Back to your tickets' };
  if (!validId) return <NotFoundState what="ticket" back={back} />;
  if (isPending) return <CircularProgress aria-label="Loading the ticket" />;
  if (error || !ticket)
    return (
      <LoadError
        error={error}
        what="ticket"
        back={back}
        onRetry={() => void queryClient.invalidateQueries({ queryKey: key })}
      />
    );
  const closed = ticket.status === 'closed';
  return (
    <Box>
      <PageHeader
        title={`#${ticket.id} ${ticket.subject}`}
        description={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <StatusChip status={ticket.status} />
            <PriorityChip priority={ticket.priority} />
            {ticket.server_name && <Chip size="small" label={`Server: ${ticket.server_name}`} />}
            <Typography variant="body2" color="text.secondary">
              Opened by {ticket.email} on {formatDateTime(ticket.created_at)}
            </Typography>
          </Stack>
        }
        actions={
          <Stack direction="row" spacing={1}>
            <Button startIcon={<ArrowBack />} component={RouterLink} to="/ticket-list">
              All tickets
            </Button>
            {closed ? (
              <Button variant="outlined" onClick={() => void setStatus('open')}>
                Reopen ticket
              </Button>
            ) : (
              <Button variant="outlined" color="warning" onClick={() => setConfirmClose(true)}>
                Close ticket
              </Button>
            )}
          </Stack>
        }
      />
      <Stack
        spacing={2}
        component="ol"
        sx={{ listStyle: 'none', p: 0, m: 0 }}
        aria-label="Messages"
      >
        {ticket.thread.map((m) => (
          <Card
            component="li"
            key={m.id}
            variant="outlined"
            data-testid="ticket-message"
            sx={{ borderLeft: 4, borderLeftColor: m.from_staff ? 'primary.main' : 'divider' }}
          >
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 1 }}>
                <Typography variant="subtitle2">{m.author}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(m.created_at)}
                </Typography>
              </Stack>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {m.body}
              </Typography>
              {m.attachments.length > 0 && (
                <Stack direction="row" sx={{ mt: 1.5, flexWrap: 'wrap', gap: 1 }}>
                  {m.attachments.map((a) => (
                    <Button
                      key={a.id}
                      size="small"
                      variant="outlined"
                      startIcon={<AttachFile />}
                      onClick={() =>
                        void downloadAttachment(a).catch((e: unknown) =>
                          notify(errorMessage(e), { type: 'error' }),
                        )
                      }
                    >
                      {a.name} ({kb(a.size)})
                    </Button>
                  ))}
                </Stack>
              )}
            </CardContent>
          </Card>
        ))}
      </Stack>
      <Card variant="outlined" sx={{ mt: 3 }}>
        <CardContent>
          {closed ? (
            <Typography color="text.secondary">
              This ticket is closed. Reopen it to write again.
            </Typography>
          ) : (
            <Form
              key={generation}
              defaultValues={{ message: '' }}
              resolver={resolver}
              onSubmit={onReply}
              noValidate
            >
              <TextInput
                size="medium"
                source="message"
                label="Your reply"
                multiline
                minRows={4}
                fullWidth
              />
              <AttachmentPicker value={files} onChange={setFiles} />
              <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2 }}>
                <SaveButton label="Send reply" icon={<SendOutlined />} alwaysEnable />
              </Stack>
            </Form>
          )}
        </CardContent>
      </Card>
      <Dialog open={confirmClose} onClose={() => setConfirmClose(false)}>
        <DialogTitle>Close this ticket?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            A closed ticket takes no replies until it is reopened.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmClose(false)}>Cancel</Button>
          <Button
            color="warning"
            variant="contained"
            onClick={() => {
              setConfirmClose(false);
              void setStatus('closed');
            }}
          >
            Close ticket
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
