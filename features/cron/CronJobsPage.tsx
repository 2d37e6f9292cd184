import { useState } from 'react';
import { Alert, Box, Button, Chip, Stack, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import SyncAlt from '@mui/icons-material/SyncAlt';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
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
  // "Check against the server": the same list read with `?sync=true` (drift per row).
  const [checking, setChecking] = useState(false);
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
        filter={checking ? { sync: 'true' } : undefined}
        filterFields={['sys_user']}
        actions={
          <Stack direction="row" spacing={1}>
            <Tooltip title={online ? '' : 'The server is offline'}>
              <span>
                <Button
                  variant="outlined"
                  startIcon={<SyncAlt />}
                  disabled={!online}
                  onClick={() => setChecking(!checking)}
                  aria-pressed={checking}
                >
                  {checking ? 'Stop checking' : 'Check against the server'}
                </Button>
              </span>
            </Tooltip>
            {create}
          </Stack>
        }
        before={
          <>
            <OfflineSaves />
            {checking ? (
              <Alert severity="info" sx={{ mb: 2 }} data-testid="sync-notice">
                Compared with the crontabs on {name}: a job the server does not have is marked
                missing, one that differs from what the panel holds is marked changed. Saving a job
                writes it again.
              </Alert>
            ) : null}
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
