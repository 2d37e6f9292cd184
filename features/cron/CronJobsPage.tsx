import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { useDriftCheck } from '../../src/generic/DriftCheck';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { OfflineSaves } from './OfflineSaves';
import { cronPaths, jobName } from './links';
import { cronjobs } from './resource';
import { RunNowButton } from './RunNowButton';

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** /cron-jobs/{id}: the server's cron jobs, where they stand, and how they differ from it. */
export default function CronJobsPage() {
  const { sid, online, server } = useServerPage();
  const name = shownName(server).name;
  const check = useDriftCheck(
    online,
    `Compared with the crontabs on ${name}: a job the server does not have is marked missing, one that differs from what the panel holds is marked changed. Saving a job writes it again.`,
  );
  const create = (
    <Button component={Link} to={cronPaths.create(sid)} variant="contained" startIcon={<Add />}>
      Add cron job
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={cronjobs}
        title="Cron jobs"
        description={`Commands ${name} runs on a schedule, each as one of its users.`}
        meta={{ sid }}
        filter={check.filter}
        filterFields={['sys_user']}
        actions={
          <Stack direction="row" spacing={1}>
            {check.button}
            {create}
          </Stack>
        }
        before={
          <>
            <OfflineSaves />
            {check.notice}
          </>
        }
        render={{
          label: (job: RaRecord) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {job.label || (
                  <Box component="span" sx={{ color: 'text.disabled' }}>
                    —
                  </Box>
                )}
              </Typography>
              {job.enabled ? null : <Chip size="small" label="Paused" />}
            </Stack>
          ),
          sys_user: (job: RaRecord) => <Typography sx={mono}>{String(job.sys_user)}</Typography>,
          schedule: (job: RaRecord) => (
            <Box>
              <Typography sx={mono}>{String(job.schedule)}</Typography>
              <Typography variant="caption" color="text.secondary">
                {String(job.schedule_text)}
              </Typography>
            </Box>
          ),
          command: (job: RaRecord) => (
            <Typography
              sx={{ ...mono, maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis' }}
              title={String(job.command)}
              noWrap
            >
              {String(job.command)}
            </Typography>
          ),
          // The app whose install made the job: deleting the app takes the job with it.
          webapp_name: (job: RaRecord) =>
            job.webapp_name ? (
              <Chip size="small" variant="outlined" label={String(job.webapp_name)} />
            ) : (
              <Box component="span" sx={{ color: 'text.disabled' }}>
                —
              </Box>
            ),
        }}
        rowActions={(job) => <RunNowButton sid={sid} job={job} disabled={!online} />}
        editLink={(job) => cronPaths.edit(sid, job.id)}
        deletable={{
          what: jobName,
          consequence: (job) =>
            `Its line leaves the crontab of ${String(job.sys_user)} on ${name}; the user's own lines stay.`,
        }}
        empty={{
          title: 'No cron jobs yet',
          text: `Run a command on ${name} on a schedule: every few minutes, nightly, at reboot.`,
          icon: ScheduleOutlined,
          action: create,
        }}
      />
    </Box>
  );
}
