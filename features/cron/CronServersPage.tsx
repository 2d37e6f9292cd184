import { Typography } from '@mui/material';
import { useGetList } from 'ra-core';
import { ServerPickerPage } from '../../src/generic/ServerPickerPage';
import { cronPaths } from './links';

/** How many jobs a server has: one row asked for, its total read. */
function JobCount({ sid }: { sid: number }) {
  const { total, isPending, error } = useGetList('cronjobs', {
    pagination: { page: 1, perPage: 1 },
    meta: { sid },
  });
  if (isPending || error || total === undefined) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mr: 2, whiteSpace: 'nowrap' }}>
      {total === 0 ? 'No jobs' : total === 1 ? '1 job' : `${total} jobs`}
    </Typography>
  );
}

/** /cron-job (main sidebar): the user's servers, each leading to its cron jobs. */
export default function CronServersPage() {
  return (
    <ServerPickerPage
      title="Cron jobs"
      description="Cron jobs belong to a server: choose the server whose jobs you want to see."
      emptyText="Connect a server first; its cron jobs are managed from here."
      to={cronPaths.list}
      extra={(server) => <JobCount sid={server.id} />}
    />
  );
}
