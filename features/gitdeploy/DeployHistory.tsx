import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Collapse,
  IconButton,
  Paper,
  Stack,
  TableCell,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { QueryTable } from '../../src/generic/QueryTable';
import { errorMessage } from '../../src/generic/serverErrors';
import type { GitDeploy } from './resource';
import { FirstDeployNotice, RollbackDialog, releaseLabel, useReleases } from './ReleasesPanel';
import { useGitCall } from './useGitCall';

const COLOURS = { running: 'info', completed: 'success', failed: 'error' } as const;

function DeployRow({ row }: { row: GitDeploy }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TableRow data-testid="deploy-row">
        <TableCell>
          <IconButton
            size="small"
            aria-label={open ? 'Hide the output' : 'Show the output'}
            onClick={() => setOpen(!open)}
          >
            <ExpandMore sx={{ transform: open ? 'rotate(180deg)' : undefined }} />
          </IconButton>
        </TableCell>
        <TableCell>
          <Chip size="small" color={COLOURS[row.status]} label={row.status} />
        </TableCell>
        <TableCell>{row.trigger}</TableCell>
        <TableCell>{row.branch}</TableCell>
        <TableCell sx={{ fontFamily: 'monospace' }}>{row.commit?.slice(0, 12) ?? '—'}</TableCell>
        <TableCell>{new Date(row.created_at).toLocaleString()}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={6} sx={{ py: 0, borderBottom: open ? undefined : 'none' }}>
          <Collapse in={open} unmountOnExit>
            {row.message ? <Alert severity="error">{row.message}</Alert> : null}
            <Box
              component="pre"
              sx={{ fontSize: 12, maxHeight: 300, overflow: 'auto', bgcolor: 'action.hover', p: 1 }}
            >
              {row.output || (row.status === 'running' ? 'Running…' : 'No output')}
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}

/** Deploy now, roll back, and the deploys, newest first (refreshed while one runs). */
export function DeployHistory() {
  const { sid, appId, call } = useGitCall();
  const notify = useNotify();
  const client = useQueryClient();
  const [page, setPage] = useState(0);
  const [busy, setBusy] = useState(false);
  const key = ['gitdeploy', 'deploys', sid, appId, page];
  const list = useQuery({
    queryKey: key,
    queryFn: () =>
      call<{ data: GitDeploy[]; total: number }>('deploys', undefined, {
        page: page + 1,
        perPage: 10,
      }),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'running') ? 1500 : false),
  });
  const releases = useReleases();
  const [confirming, setConfirming] = useState(false);
  const act = async (action: 'deploy' | 'rollback', done: string, body?: unknown) => {
    setBusy(true);
    setConfirming(false);
    try {
      await call(action, body);
      notify(done, { type: 'info' });
      await client.invalidateQueries({ queryKey: ['gitdeploy', 'deploys', sid, appId] });
      await client.invalidateQueries({ queryKey: ['gitdeploy', 'releases', sid, appId] });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const rows = list.data?.data ?? [];
  const running = rows.some((d) => d.status === 'running');
  // A deploy makes its release when it ends, not when it starts: read the kept releases again
  // then (the first-deploy notice goes, the rollback dialog offers the files kept from before).
  const { refetch: refetchReleases } = releases;
  useEffect(() => {
    if (!running) void refetchReleases();
  }, [running, refetchReleases]);
  return (
    <Paper sx={{ p: 2 }} aria-label="Deploys">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Deploys
        </Typography>
        <Button
          variant="outlined"
          disabled={busy || running}
          onClick={() => {
            void refetchReleases();
            setConfirming(true);
          }}
        >
          Roll back…
        </Button>
        <Button
          variant="contained"
          disabled={busy || running}
          onClick={() => void act('deploy', 'Deploy started.')}
        >
          Deploy now
        </Button>
      </Stack>
      <FirstDeployNotice state={releases.data} />
      <RollbackDialog
        open={confirming}
        state={releases.data}
        onClose={() => setConfirming(false)}
        onConfirm={(release) =>
          void act('rollback', `Switched to ${releaseLabel(release)}.`, { release })
        }
      />
      <QueryTable
        query={{ ...list, data: rows }}
        failed="The deploys could not be loaded."
        empty="No deploys yet: deploy now, or push with the webhook on."
        label="Deploys"
        // The first column holds each row's button that shows its output.
        columns={[{ label: '', align: 'left' }, 'Status', 'By', 'Branch', 'Commit', 'Started']}
        footer={
          <TablePagination
            component="div"
            count={list.data?.total ?? 0}
            page={page}
            onPageChange={(_e, p) => setPage(p)}
            rowsPerPage={10}
            rowsPerPageOptions={[10]}
          />
        }
      >
        {(shown) => shown.map((row) => <DeployRow key={row.id} row={row} />)}
      </QueryTable>
    </Paper>
  );
}
