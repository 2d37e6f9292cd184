import { Navigate, useLocation } from 'react-router-dom';
import { GenericEdit } from '../../src/generic/GenericEdit';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { OfflineSaves } from './OfflineSaves';
import { cronPaths, jobIdOf } from './links';
import { cronjobs } from './resource';
import { describeSchedule } from './schedule';

/** /edit-cron-job/{id}?job=N: change a job of the server (the spec names only the server). */
export default function EditCronJobPage() {
  const { sid } = useServerPage();
  const job = jobIdOf(useLocation().search);
  if (job === null) return <Navigate to={cronPaths.list(sid)} replace />;
  return (
    <GenericEdit
      key={job}
      resource={cronjobs}
      id={job}
      title="Edit cron job"
      noun="The cron job"
      meta={{ sid }}
      describe={{ schedule: describeSchedule }}
      cancelTo={cronPaths.list(sid)}
      redirectTo={() => cronPaths.list(sid)}
      failedTo={cronPaths.list(sid)}
      missingTo={cronPaths.list(sid)}
      before={<OfflineSaves />}
    />
  );
}
