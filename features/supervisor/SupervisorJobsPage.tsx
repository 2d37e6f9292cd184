import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RaRecord, useNotify, useRefresh } from 'ra-core';
import { Link } from 'react-router-dom';
import { useDriftCheck } from '../../src/generic/DriftCheck';
import { GenericList } from '../../src/generic/GenericList';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { ConfirmButton } from '../../src/pages/server/ConfirmButton';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { JobControls } from './JobControls';
import { LogsButton } from './LogsButton';
import { ProcessCell } from './ProcessCell';
import { svPaths } from './links';
import { svjobs } from './resource';
import { processesKey, useProcesses } from './useProcesses';

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** /supervisor-jobs/{id}: the server's supervisor jobs, their processes, and what to do with them. */
export default function SupervisorJobsPage() {
  const { sid, online, server } = useServerPage();
  const name = shownName(server).name;
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const refresh = useRefresh();
  const check = useDriftCheck(
    online,
    `Compared with the program files on ${name}: a job the server does not have is marked missing, one that differs is marked changed. Rebuild writes them again.`,
  );
  const processes = useProcesses(sid, online, server.uuid);
  const rebuild = useMutation({
    mutationFn: () =>
      dataProvider.action<{ rebuilt: number; failed: number; waiting: number }>(
        'svjobs',
        'rebuild',
        {
          params: { sid },
        },
      ),
    onSuccess: (r) => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: processesKey(sid) });
      notify(
        `Rebuilt ${r.rebuilt} job${r.rebuilt === 1 ? '' : 's'}${r.failed ? `, ${r.failed} failed` : ''}${r.waiting ? `, ${r.waiting} waiting for the server` : ''}`,
        { type: r.failed ? 'warning' : 'info' },
      );
    },
    onError: (error) =>
      notify(errorMessage(error, 'The jobs could not be rebuilt'), { type: 'error' }),
  });
  const create = (
    <Button component={Link} to={svPaths.create(sid)} variant="contained" startIcon={<Add />}>
      Add supervisor job
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={svjobs}
        title="Supervisor jobs"
        description={`Programs ${name} keeps running with supervisor: queue workers, Node.js apps, anything that must stay up.`}
        meta={{ sid }}
        columns={['name', 'command', 'user', 'status']}
        filter={check.filter}
        // `sync` is the page's own button, not a filter.
        filterFields={[]}
        actions={
          <Stack direction="row" spacing={1}>
            {check.button}
            <ConfirmButton
              variant="outlined"
              startIcon={<AutorenewOutlined />}
              disabled={!online || rebuild.isPending}
              title="Rebuild every job?"
              content={`Each job's program file on ${name} is written again from the panel, and supervisor takes it (a changed one restarts).`}
              confirmLabel="Rebuild all"
              onConfirm={() => rebuild.mutateAsync().catch(() => undefined)}
            >
              Rebuild all
            </ConfirmButton>
            {create}
          </Stack>
        }
        before={
          <>
            {online ? null : (
              <Alert severity="info" sx={{ mb: 2 }} data-testid="offline-saves">
                {name} is offline: its agent is not connected. Jobs you add or delete are kept as
                pending and applied as soon as it reconnects.
              </Alert>
            )}
            {check.notice}
            {processes.isError ? (
              <Alert severity="warning" sx={{ mb: 2 }}>
                {errorMessage(processes.error, 'The processes could not be read.')}
              </Alert>
            ) : null}
          </>
        }
        render={{
          name: (job: RaRecord) => (
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {String(job.name)}
            </Typography>
          ),
          command: (job: RaRecord) => (
            <Box>
              <Typography
                sx={{ ...mono, maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis' }}
                title={String(job.command)}
                noWrap
              >
                {String(job.command)}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                in {String(job.directory)}
              </Typography>
            </Box>
          ),
          user: (job: RaRecord) => <Typography sx={mono}>{String(job.user)}</Typography>,
        }}
        extraColumns={[
          {
            key: 'processes',
            label: 'Processes',
            align: 'left',
            render: (job) => (
              <ProcessCell
                processes={
                  online && processes.data
                    ? processes.data.filter((p) => p.name === job.name)
                    : undefined
                }
              />
            ),
          },
        ]}
        rowActions={(job) => (
          <>
            <JobControls sid={sid} job={job} disabled={!online} />
            <LogsButton sid={sid} job={job} disabled={!online || job.status !== 'active'} />
          </>
        )}
        deletable={{
          what: (job) => `supervisor job ${String(job.name)}`,
          consequence: (job) =>
            `Its processes stop, children too, and its program file leaves ${name}; its log files stay in /var/log/supervisor. (${String(job.command)})`,
        }}
        empty={{
          title: 'No supervisor jobs yet',
          text: `Keep a program running on ${name}: a queue worker, a Node.js app, a websocket server.`,
          icon: MemoryOutlined,
          action: create,
        }}
      />
    </Box>
  );
}
