import {
  Alert,
  Box,
  Button,
  Card,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { useGetList } from 'ra-core';
import { useState } from 'react';
import type { ServerActivity } from '../../../resources/server-activity';
import { EmptyState } from '../../generic/EmptyState';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { useServerPage } from './ServerContext';
import { StatusChip } from './StatusChip';
import { TablePager, usePaging } from '../../generic/TablePager';

const STATUSES = ['', 'pending', 'done', 'failed'] as const;

/** /activity-logs/{id}: every op on the server, newest first, with how it ended. */
export default function ActivityLogsPage() {
  const { sid } = useServerPage();
  const paging = usePaging(25);
  const { page, perPage, setPage } = paging;
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const { data, total, isPending, error, refetch, isFetching } = useGetList<ServerActivity>(
    'server-activity',
    {
      meta: { sid },
      pagination: { page: page + 1, perPage },
      sort: { field: 'created_at', order: 'DESC' },
      filter: status ? { status } : {},
    },
    // While an op runs its line is pending: look again until it settles.
    {
      refetchInterval: (query) =>
        query.state.data?.data.some((row) => row.status === 'pending') ? 3000 : false,
    },
  );

  return (
    <Box>
      <PageHeader
        title="Activity logs"
        description="What was done on this server, and how it ended."
        actions={
          <>
            <TextField
              select
              size="small"
              label="Status"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as (typeof STATUSES)[number]);
                setPage(0);
              }}
              sx={{ minWidth: 140 }}
            >
              {STATUSES.map((value) => (
                <MenuItem key={value} value={value}>
                  {value ? value[0]!.toUpperCase() + value.slice(1) : 'All'}
                </MenuItem>
              ))}
            </TextField>
            <Button startIcon={<Refresh />} onClick={() => void refetch()} disabled={isFetching}>
              Refresh
            </Button>
          </>
        }
      />
      {error ? (
        <Alert severity="error">
          {errorMessage(error, 'The activity logs could not be loaded.')}
        </Alert>
      ) : null}
      <Card variant="outlined">
        {!isPending && !error && total === 0 ? (
          <EmptyState
            icon={HistoryOutlined}
            title={status ? 'No matching entries' : 'No activity yet'}
            text="Every change made to this server through the panel is listed here."
          />
        ) : (
          <>
            <Table size="small" aria-label="Activity logs">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Who</TableCell>
                  <TableCell>What</TableCell>
                  <TableCell>Status</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(data ?? []).map((row) => (
                  <TableRow key={row.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {new Date(row.created_at).toLocaleString()}
                    </TableCell>
                    {/* Lines older than the column say nothing of who: a dash, not a guess. */}
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.who ?? '—'}</TableCell>
                    <TableCell>
                      {row.message}
                      {row.error ? (
                        <Typography variant="body2" color="error">
                          {row.error}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      <StatusChip status={row.status} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <TablePager paging={paging} total={total} options={[10, 25, 50, 100]} />
          </>
        )}
      </Card>
    </Box>
  );
}
