import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, Link, Stack, TableCell, TableRow, TextField } from '@mui/material';
import Add from '@mui/icons-material/Add';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import { useGetList } from 'ra-core';
import { TICKET_STATUSES, type Ticket } from '../../resources/tickets';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { formatDateTime } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { useAccount } from '../../src/shell/useAccount';
import { PriorityChip, STATUS_LABELS, StatusChip } from './chips';
import { StatusFilter } from '../../src/generic/StatusFilter';
import { TablePager, usePaging } from '../../src/generic/TablePager';

/** /ticket-list: the user's tickets; for an admin, every user's (the support desk). */
export default function TicketListPage() {
  const { isAdmin, acting } = useAccount();
  const desk = isAdmin && !acting;
  const [status, setStatus] = useState<'' | Ticket['status']>('');
  const [email, setEmail] = useState('');
  const paging = usePaging(25);
  const { page, perPage, setPage } = paging;
  const filter: Record<string, string> = {};
  if (status) filter.status = status;
  if (desk && email.trim()) Object.assign(filter, { type: 'email', value: email.trim() });
  const { data, total, isPending, error } = useGetList<Ticket>('tickets', {
    pagination: { page: page + 1, perPage },
    sort: { field: 'updated_at', order: 'DESC' },
    filter,
  });
  const filtered = Boolean(status || (desk && email.trim()));

  return (
    <Box>
      <PageHeader
        title={desk ? 'Support tickets (all users)' : 'Support tickets'}
        description={
          desk
            ? 'Every ticket users opened. Open one to answer it; the user gets your answer by mail.'
            : 'Ask us anything about your account or servers. We answer by mail and here.'
        }
        actions={
          <Button
            variant="contained"
            startIcon={<Add />}
            component={RouterLink}
            to="/create-ticket"
          >
            New ticket
          </Button>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <StatusFilter
          id="ticket-status-filter"
          value={status}
          statuses={TICKET_STATUSES}
          labelOf={(s) => STATUS_LABELS[s]}
          onChange={(next) => {
            setStatus(next);
            setPage(0);
          }}
        />
        {desk && (
          <TextField
            size="small"
            label="User's email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setPage(0);
            }}
          />
        )}
      </Stack>
      <Card variant="outlined">
        <QueryTable
          query={{ isPending, error, data }}
          failed="The tickets could not be loaded."
          label="Tickets"
          size="medium"
          columns={[
            '#',
            'Subject',
            ...(desk ? ['User'] : []),
            'Status',
            'Priority',
            'Server',
            'Last activity',
          ]}
          empty={
            <EmptyState
              icon={SupportAgentOutlined}
              title={filtered ? 'No tickets match' : 'No tickets yet'}
              text={
                filtered
                  ? 'Try another status.'
                  : 'When you need help, open a ticket and we will answer here and by mail.'
              }
              action={
                !filtered && (
                  <Button variant="contained" component={RouterLink} to="/create-ticket">
                    Open a ticket
                  </Button>
                )
              }
            />
          }
          footer={<TablePager paging={paging} total={total} options={[10, 25, 50]} />}
        >
          {(rows) =>
            rows.map((t) => (
              <TableRow key={t.id} hover>
                <TableCell>{t.id}</TableCell>
                <TableCell>
                  <Link component={RouterLink} to={`/ticket-response/${t.id}`}>
                    {t.subject}
                  </Link>
                </TableCell>
                {desk && <TableCell>{t.email}</TableCell>}
                <TableCell>
                  <StatusChip status={t.status} />
                </TableCell>
                <TableCell>
                  <PriorityChip priority={t.priority} />
                </TableCell>
                <TableCell>{t.server_name ?? '—'}</TableCell>
                <TableCell>{formatDateTime(t.updated_at)}</TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </Card>
    </Box>
  );
}
