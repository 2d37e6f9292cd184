import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Stack } from '@mui/material';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { Form, useGetList } from 'ra-core';
import { SaveButton, SelectInput, TextInput } from 'ra-ui-materialui';
import type { Server } from '../../resources/servers';
import {
  type AttachmentInput,
  TICKET_PRIORITIES,
  type TicketThread,
  newTicketBody,
} from '../../resources/tickets';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { AttachmentPicker } from './attachments';

/** The form's part of the shared body; files are picked beside it. */
const formBody = newTicketBody.omit({ attachments: true });
const resolver = schemaResolver(formBody);
const FIELDS = ['subject', 'server_id', 'priority', 'message'];
const PRIORITY_CHOICES = TICKET_PRIORITIES.map((p) => ({
  id: p,
  name: p[0]!.toUpperCase() + p.slice(1),
}));

/** /create-ticket: subject, optional server, priority, message and files. */
export default function CreateTicketPage() {
  const dp = useStackdeckData();
  const navigate = useNavigate();
  const [files, setFiles] = useState<AttachmentInput[]>([]);
  const { data: servers } = useGetList<Server>('servers', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  const serverChoices = useMemo(
    () => (servers ?? []).map((s) => ({ id: s.id, name: s.pending_name ?? s.name })),
    [servers],
  );
  const onSubmit = useSubmitHandler<Record<string, unknown>>(
    [...FIELDS, 'attachments'],
    async (values) => {
      const ticket = await dp.action<TicketThread>('tickets', 'open', {
        body: { ...values, attachments: files },
      });
      navigate(`/ticket-response/${ticket.id}`);
    },
    'Ticket opened. We will answer by mail and here.',
  );
  return (
    <Box>
      <PageHeader title="Open a ticket" description="Tell us what happened; we answer by mail." />
      <SectionCard id="create-ticket" title="New ticket" icon={SupportAgentOutlined}>
        <Form
          defaultValues={{ subject: '', server_id: '', priority: 'normal', message: '' }}
          resolver={resolver}
          onSubmit={onSubmit}
          noValidate
        >
          <TextInput size="medium" source="subject" label="Subject" fullWidth autoFocus />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <SelectInput
              size="medium"
              source="server_id"
              label="Server (optional)"
              choices={serverChoices}
              emptyText="No particular server"
              fullWidth
            />
            <SelectInput
              size="medium"
              source="priority"
              label="Priority"
              choices={PRIORITY_CHOICES}
              fullWidth
            />
          </Stack>
          <TextInput
            size="medium"
            source="message"
            label="Message"
            multiline
            minRows={6}
            fullWidth
          />
          <AttachmentPicker value={files} onChange={setFiles} />
          <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2 }}>
            <SaveButton label="Open ticket" icon={<SendOutlined />} alwaysEnable />
          </Stack>
        </Form>
      </SectionCard>
    </Box>
  );
}
