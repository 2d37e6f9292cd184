import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  IconButton,
  Link as MuiLink,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import RestoreOutlined from '@mui/icons-material/RestoreOutlined';
import { useGetOne, useNotify } from 'ra-core';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { LoadError, NotFoundState, isNotFound } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { formatDateTime, formatRelative } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { sessions } from '../../src/providers';
import { ConfirmDialog } from './ConfirmDialog';
import { DeletePolicyDialog } from './PoliciesPage';
import { RestoreDialog } from './RestoreDialog';
import { BackupNowButton, TaskProgress, useBackupsRefresh } from './TaskProgress';
import { HealthChip, StatusChip, sizeText } from './chips';
import type { BackupPolicy, BackupRestore, BackupRun, BackupType } from './schemas';
import { backupPaths, durationText, fileName, keptCopyWords, runActive, typeWords } from './words';

type Detail = BackupPolicy & {
  files: BackupRun[];
  files_total: number;
  restores: BackupRestore[];
};

/** Downloads a file with the session's token (a plain link would carry none). */
async function download(policy: BackupPolicy, file: BackupRun) {
  const session = sessions.get();
  if (!session) throw new Error('Sign in again to download');
  const res = await fetch(`/api/v1/backup-files/${file.id}/download/users/${session.userId}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (!res.ok)
    throw new Error(res.status === 404 ? 'This file is not available' : `HTTP ${res.status}`);
  const stamp = (file.started_at ?? file.created_at).slice(0, 16).replace(/[:T]/g, '-');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `${policy.subject}-${stamp}.${policy.type === 'database' ? 'sql' : 'tar'}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 3 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Box sx={{ typography: 'body2' }}>{children}</Box>
    </Grid>
  );
}

/**
 * /account-backup-files/{id} and /database-backup-files/{id}: one policy, where it stands, and
 * its files: restore, download, delete each; back up now.
 */
export function FilesPage({ type }: { type: BackupType }) {
  const { id } = useParams();
  const dp = useStackdeckData();
  const notify = useNotify();
  const navigate = useNavigate();
  const refresh = useBackupsRefresh();
  const words = typeWords(type);
  const paging = usePaging(25);
  const [task, setTask] = useState<{ id: number; kind: 'backup' | 'restore' } | null>(null);
  const [restoring, setRestoring] = useState<BackupRun | null>(null);
  const [removing, setRemoving] = useState<BackupRun | null>(null);
  const [deletingAll, setDeletingAll] = useState(false);
  const [keeping, setKeeping] = useState<BackupRestore | null>(null);
  const { data, error, refetch } = useGetOne<Detail>(
    'backups',
    { id: Number(id), meta: { query: { page: paging.page + 1, perPage: paging.perPage } } },
    {
      enabled: Boolean(Number(id)),
      refetchInterval: (query) =>
        query.state.data?.files.some((f) => runActive(f)) ? 2000 : false,
    },
  );
  const back = { to: backupPaths.list(type), label: words.title };
  if (error)
    return isNotFound(error) ? (
      <NotFoundState what="backup" back={back} />
    ) : (
      <LoadError error={error} what="backup" back={back} onRetry={() => void refetch()} />
    );
  if (!data || data.type !== type) return null;
  const policy = data;
  const when = (v: string) => formatDateTime(v);
  return (
    <Box>
      <PageHeader
        title={`Backups of ${policy.subject}`}
        description={
          <>
            {words.one[0]!.toUpperCase() + words.one.slice(1)} on {policy.server_name}.{' '}
            <MuiLink component={Link} to={back.to}>
              All {words.title.toLowerCase()}
            </MuiLink>
          </>
        }
        actions={
          <Stack direction="row" spacing={1}>
            <BackupNowButton
              backupId={policy.id}
              subject={policy.subject}
              variant="contained"
              onStarted={(taskId) => setTask({ id: taskId, kind: 'backup' })}
            />
            <Button color="error" onClick={() => setDeletingAll(true)}>
              Delete backup
            </Button>
          </Stack>
        }
      />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Grid container spacing={2}>
            <Fact label="Health">
              <HealthChip health={policy.health} />
            </Fact>
            <Fact label="Schedule">
              {policy.enabled
                ? policy.schedule_text
                : `Paused${policy.paused_reason ? `: ${policy.paused_reason.toLowerCase()}` : ''}`}
              {policy.enabled && policy.next_run_at ? (
                <Typography variant="caption" color="text.secondary" component="div">
                  Next: {formatDateTime(policy.next_run_at)}
                </Typography>
              ) : null}
            </Fact>
            <Fact label="Storage">
              {policy.target_name}
              <Typography variant="caption" color="text.secondary" component="div">
                {sizeText(policy.stored_bytes)} kept
              </Typography>
            </Fact>
            <Fact label="Last checked">
              {policy.verified_at ? (
                <Tooltip title={formatDateTime(policy.verified_at)}>
                  <span>{formatRelative(policy.verified_at)}</span>
                </Tooltip>
              ) : (
                'Not yet'
              )}
            </Fact>
          </Grid>
        </CardContent>
      </Card>
      {task ? (
        <TaskProgress
          key={task.id}
          taskId={task.id}
          words={
            task.kind === 'backup'
              ? {
                  running: `Backing up ${policy.subject}…`,
                  done: `${policy.subject} is backed up`,
                  failed: `The backup of ${policy.subject} failed`,
                }
              : {
                  running: `Restoring ${policy.subject}…`,
                  done: 'Restored',
                  failed: 'The restore failed',
                }
          }
          onEnd={() => void refetch()}
        />
      ) : null}
      {policy.restores.map((kept) => {
        const w = keptCopyWords(kept, when);
        return (
          <Alert
            key={kept.id}
            severity="info"
            sx={{ mb: 2 }}
            data-testid={`kept-${kept.id}`}
            action={
              <Button color="inherit" size="small" onClick={() => setKeeping(kept)}>
                {w.button}
              </Button>
            }
          >
            {w.notice}
          </Alert>
        );
      })}
      {policy.files.length === 0 && paging.page === 0 ? (
        <EmptyState
          title="No files yet"
          text={
            policy.enabled
              ? `The first backup runs ${policy.schedule_text.toLowerCase()}; or back up now.`
              : 'The schedule is paused; back up now to take one.'
          }
        />
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label="Backup files">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Size</TableCell>
                  <TableCell>Added</TableCell>
                  <TableCell>Took</TableCell>
                  <TableCell>Checked</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {policy.files.map((file) => {
                  const usable = file.status === 'ok' || file.status === 'partial';
                  const name = fileName(policy, file, when);
                  return (
                    <TableRow key={file.id} data-testid={`file-${file.id}`}>
                      <TableCell>
                        {when(file.started_at ?? file.created_at)}
                        {file.trigger === 'manual' ? (
                          <Typography variant="caption" color="text.secondary" component="div">
                            Backed up by hand
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>
                        <StatusChip status={file.status} />
                        {file.error ? (
                          <Typography
                            variant="caption"
                            color={file.status === 'failed' ? 'error' : 'text.secondary'}
                            component="div"
                            sx={{ maxWidth: 320 }}
                          >
                            {file.error}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell data-testid="file-size">{sizeText(file.size_bytes)}</TableCell>
                      <TableCell>{sizeText(file.added_bytes)}</TableCell>
                      <TableCell>{durationText(file.duration_ms)}</TableCell>
                      <TableCell>
                        {file.verified_at ? formatRelative(file.verified_at) : 'Not yet'}
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                          <Tooltip title={`Restore ${name}`}>
                            <span>
                              <IconButton
                                size="small"
                                aria-label={`Restore ${name}`}
                                disabled={!usable}
                                onClick={() => setRestoring(file)}
                              >
                                <RestoreOutlined fontSize="small" />
                              </IconButton>
                            </span>
                          </Tooltip>
                          <Tooltip title={`Download ${name}`}>
                            <span>
                              <IconButton
                                size="small"
                                aria-label={`Download ${name}`}
                                disabled={!usable}
                                onClick={() =>
                                  download(policy, file).catch((e: unknown) =>
                                    notify(errorMessage(e), { type: 'error' }),
                                  )
                                }
                              >
                                <DownloadOutlined fontSize="small" />
                              </IconButton>
                            </span>
                          </Tooltip>
                          <Tooltip title={`Delete ${name}`}>
                            <span>
                              <IconButton
                                size="small"
                                aria-label={`Delete ${name}`}
                                disabled={runActive(file)}
                                onClick={() => setRemoving(file)}
                              >
                                <DeleteOutline fontSize="small" />
                              </IconButton>
                            </span>
                          </Tooltip>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager paging={paging} total={policy.files_total} />
        </Paper>
      )}
      {restoring ? (
        <RestoreDialog
          policy={policy}
          file={restoring}
          onClose={() => setRestoring(null)}
          onStarted={(taskId) => setTask({ id: taskId, kind: 'restore' })}
        />
      ) : null}
      <ConfirmDialog
        open={Boolean(removing)}
        title="Delete this backup file?"
        text={
          removing
            ? `${fileName(policy, removing, when)[0]!.toUpperCase()}${fileName(policy, removing, when).slice(1)} (${sizeText(removing.size_bytes)}) is deleted from ${policy.target_name}. It cannot be restored afterwards; the other files stay.`
            : ''
        }
        confirm="Delete file"
        busyLabel="Deleting…"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await dp.action('backups', 'removeFile', {
            query: { sid: policy.id, file_id: removing.id },
          });
          notify('Backup file deleted', { type: 'success' });
          await refresh();
        }}
      />
      <ConfirmDialog
        open={Boolean(keeping)}
        title={keeping ? keptCopyWords(keeping, when).title : ''}
        text={keeping ? keptCopyWords(keeping, when).confirm : ''}
        confirm="Delete the previous copy"
        busyLabel="Deleting…"
        onClose={() => setKeeping(null)}
        onConfirm={async () => {
          if (!keeping) return;
          await dp.action('backups', 'keepRestore', {
            params: { backupId: policy.id },
            body: { restore_id: keeping.id },
          });
          notify(`Restore kept: ${keeping.previous} was deleted`, { type: 'success' });
          await refetch();
        }}
      />
      <DeletePolicyDialog
        policy={deletingAll ? policy : null}
        onClose={() => setDeletingAll(false)}
        onDeleted={() => navigate(back.to)}
      />
    </Box>
  );
}
