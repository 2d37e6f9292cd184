import { GenericCreate } from '../../src/generic/GenericCreate';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { OfflineSaves } from './OfflineSaves';
import { cronPaths } from './links';
import { cronjobs } from './resource';
import { describeSchedule } from './schedule';

/** /create-cron-job/{id}: a new job on the server, from the declaration's form. */
export default function CreateCronJobPage() {
  const { sid, server } = useServerPage();
  return (
    <GenericCreate
      resource={cronjobs}
      title="Add a cron job"
      description={`A command ${shownName(server).name} runs on a schedule, as root or one of its system users.`}
      noun="The cron job"
      meta={{ sid }}
      describe={{ schedule: describeSchedule }}
      saveLabel="Add cron job"
      cancelTo={cronPaths.list(sid)}
      redirectTo={() => cronPaths.list(sid)}
      failedTo={cronPaths.list(sid)}
      before={<OfflineSaves />}
    />
  );
}
