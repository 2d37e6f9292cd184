import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  Link as MuiLink,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import BackupOutlined from '@mui/icons-material/BackupOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useGetList, useGetOne, useNotify } from 'ra-core';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { LoadError } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { errorMessage } from '../../src/generic/serverErrors';
import { formatDateTime, formatRelative } from '../../src/generic/format';
import { useStackdeckData } from '../../src/hooks';
import { ConfirmDialog } from './ConfirmDialog';
import { PolicyDialog } from './PolicyForm';
import { BackupNowButton, TaskProgress, useBackupsRefresh } from './TaskProgress';
import { HealthChip, StatusChip, sizeText } from './chips';
import type { BackupPolicy, BackupType } from './schemas';
import { backupPaths, runActive, typeWords } from './words';

/** The schedule switch: on or off, the files stay. */
function EnabledSwitch({ policy }: { policy: BackupPolicy }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useBackupsRefresh();
  const [busy, setBusy] = useState(false);
  const toggle = async (enabled: boolean) => {
    setBusy(true);
    try {
      await dp.action('backups', 'toggle', { params: { backupId: policy.id }, body: { enabled } });
      await refresh();
      notify(enabled ? `${policy.subject}: schedule on` : `${policy.subject}: paused`, {
        type: 'success',
      });
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      checked={policy.enabled}
      disabled={busy || Boolean(policy.paused_reason)}
      onChange={(_, on) => void toggle(on)}
      inputProps={{ 'aria-label': `Scheduled backups of ${policy.subject}` }}
    />
  );
}

/** The last run in a line: its state, its size, when. */
export function LastRun({ policy }: { policy: BackupPolicy }) {
  const run = policy.last_run;
  if (!run)
    return (
      <Typography variant="body2" color="text.secondary">
        None yet
      </Typography>
    );
  const when = run.ended_at ?? run.started_at ?? run.created_at;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <StatusChip status={run.status} />
      <Typography variant="body2">{sizeText(run.size_bytes)}</Typography>
      <Tooltip title={formatDateTime(when)}>
        <Typography variant="body2" color="text.secondary">
          {formatRelative(when)}
        </Typography>
      </Tooltip>
    </Stack>
  );
}

/** Deleting a whole backup: the policy and every file it made, named with their number. */
export function DeletePolicyDialog({
  policy,
  onClose,
  onDeleted,
}: {
  policy: BackupPolicy | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useBackupsRefresh();
  // The number of files comes with the policy's detail (the list carries none).
  const detail = useGetOne<BackupPolicy & { files_total: number }>(
    'backups',
    { id: policy?.id ?? 0, meta: { query: { page: 1, perPage: 1 } } },
    { enabled: Boolean(policy) },
  );
  const files = policy && detail.data?.id === policy.id ? detail.data.files_total : undefined;
  return (
    <ConfirmDialog
      open={Boolean(policy)}
      title={policy ? `Delete the backup of ${policy.subject}?` : ''}
      text={
        policy
          ? `The schedule stops and ${
              files === undefined
                ? 'every file it made'
                : `its ${files} file${files === 1 ? '' : 's'}`
            } (${sizeText(policy.stored_bytes)}) ${files === 1 ? 'is' : 'are'} deleted from ${policy.target_name}. ${policy.subject} itself is not touched. This cannot be undone.`
          : ''
      }
      confirm="Delete backup and files"
      busyLabel="Deleting…"
      onClose={onClose}
      onConfirm={async () => {
        if (!policy) return;
        const answer = await dp.action<{ files: number }>('backups', 'removeAll', {
          params: { backupId: policy.id },
        });
        notify(`Backup of ${policy.subject} deleted with ${answer.files} file(s)`, {
          type: 'success',
        });
        await refresh();
        onDeleted?.();
      }}
    />
  );
}

/**
 * /account-backups and /database-backups: the policies of one type, where each stands, and
 * the way to add, change, run, pause and delete them.
 */
export function PoliciesPage({ type }: { type: BackupType }) {
  const words = typeWords(type);
  const paging = usePaging(25);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<BackupPolicy | null>(null);
  const [deleting, setDeleting] = useState<BackupPolicy | null>(null);
  const [task, setTask] = useState<{ id: number; subject: string } | null>(null);
  const { data, total, isPending, error, refetch } = useGetList<BackupPolicy>(
    'backups',
    {
      filter: { type },
      pagination: { page: paging.page + 1, perPage: paging.perPage },
      sort: { field: 'created_at', order: 'DESC' },
    },
    {
      refetchInterval: (query) =>
        query.state.data?.data.some((p) => runActive(p.last_run)) ? 2000 : false,
    },
  );
  const create = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
      Back up a {words.one}
    </Button>
  );
  return (
    <Box>
      <PageHeader
        title={words.title}
        description={
          <>
            Scheduled, checked backups of your {words.many}.{' '}
            <MuiLink component={Link} to={backupPaths.overview}>
              Storage and credit
            </MuiLink>
          </>
        }
        actions={data && data.length > 0 ? create : undefined}
      />
      {task ? (
        <TaskProgress
          key={task.id}
          taskId={task.id}
          words={{
            running: `Backing up ${task.subject}…`,
            done: `${task.subject} is backed up`,
            failed: `The backup of ${task.subject} failed`,
          }}
          onEnd={() => void refetch()}
        />
      ) : null}
      {error ? (
        <LoadError
          error={error}
          what={words.title.toLowerCase()}
          back={{ to: backupPaths.overview, label: 'Backups' }}
          onRetry={() => void refetch()}
        />
      ) : !isPending && data?.length === 0 && paging.page === 0 ? (
        <EmptyState
          title={`No ${words.one} backups yet`}
          text={`Back up a ${words.one} on a schedule, kept as long as you say, checked by reading it back.`}
          icon={BackupOutlined}
          action={create}
        />
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label={words.title}>
              <TableHead>
                <TableRow>
                  <TableCell>{type === 'webapp' ? 'Web app' : 'Database'}</TableCell>
                  <TableCell>Server</TableCell>
                  <TableCell>Schedule</TableCell>
                  <TableCell>Storage</TableCell>
                  <TableCell>Health</TableCell>
                  <TableCell>Last backup</TableCell>
                  <TableCell>On</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(data ?? []).map((policy) => (
                  <TableRow key={policy.id} data-testid={`policy-${policy.id}`}>
                    <TableCell>
                      <MuiLink component={Link} to={backupPaths.files(type, policy.id)}>
                        {policy.subject}
                      </MuiLink>
                    </TableCell>
                    <TableCell>{policy.server_name}</TableCell>
                    <TableCell>{policy.schedule_text}</TableCell>
                    <TableCell>{policy.target_name}</TableCell>
                    <TableCell>
                      <HealthChip health={policy.health} />
                      {policy.paused_reason ? (
                        <Typography
                          variant="caption"
                          color="text.secondary"
                          component="div"
                          data-testid="paused-reason"
                        >
                          {policy.paused_reason}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      <LastRun policy={policy} />
                    </TableCell>
                    <TableCell>
                      <EnabledSwitch policy={policy} />
                    </TableCell>
                    <TableCell align="right">
                      <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                        <BackupNowButton
                          backupId={policy.id}
                          subject={policy.subject}
                          onStarted={(id) => setTask({ id, subject: policy.subject })}
                        />
                        <Tooltip title={`Change the backup of ${policy.subject}`}>
                          <IconButton
                            size="small"
                            aria-label={`Change the backup of ${policy.subject}`}
                            onClick={() => setEditing(policy)}
                          >
                            <EditOutlined fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title={`Delete the backup of ${policy.subject}`}>
                          <IconButton
                            size="small"
                            aria-label={`Delete the backup of ${policy.subject}`}
                            onClick={() => setDeleting(policy)}
                          >
                            <DeleteOutline fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager paging={paging} total={total} />
        </Paper>
      )}
      {creating ? <PolicyDialog type={type} open onClose={() => setCreating(false)} /> : null}
      {editing ? (
        <PolicyDialog type={type} policy={editing} open onClose={() => setEditing(null)} />
      ) : null}
      <DeletePolicyDialog policy={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}
