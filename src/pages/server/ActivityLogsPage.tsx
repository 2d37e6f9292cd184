import { Button, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { type RaRecord, useRefresh } from 'ra-core';
import { serverActivity } from '../../../resources/server-activity';
import { GenericList } from '../../generic/GenericList';
import { useServerPage } from './ServerContext';
import { StatusChip } from './StatusChip';

/** /activity-logs/{id}: every op on the server, newest first, with how it ended. */
export default function ActivityLogsPage() {
  const { sid } = useServerPage();
  const refresh = useRefresh();
  return (
    <GenericList
      resource={serverActivity}
      title="Activity logs"
      description="What was done on this server, and how it ended."
      meta={{ sid }}
      columns={['created_at', 'who', 'message', 'status']}
      labels={{ created_at: 'When', who: 'Who', message: 'What', status: 'Status' }}
      filterFields={['status']}
      // While an op runs its line is pending: the list looks again until it settles.
      settleInterval={3000}
      render={{
        created_at: (row: RaRecord) => (
          <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
            {new Date(String(row.created_at)).toLocaleString()}
          </Typography>
        ),
        // Lines older than the column say nothing of who: a dash, not a guess.
        who: (row: RaRecord) => (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {row.who ?? '—'}
          </Typography>
        ),
        message: (row: RaRecord) => (
          <>
            <Typography variant="body2">{String(row.message)}</Typography>
            {row.error ? (
              <Typography variant="body2" color="error">
                {String(row.error)}
              </Typography>
            ) : null}
          </>
        ),
        status: (row: RaRecord) => <StatusChip status={row.status} />,
      }}
      empty={{
        title: 'No activity yet',
        text: 'Every change made to this server through the panel is listed here.',
        icon: HistoryOutlined,
      }}
      actions={
        <Button startIcon={<Refresh />} onClick={() => refresh()}>
          Refresh
        </Button>
      }
    />
  );
}
