import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Navigate, useNavigate } from 'react-router-dom';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useApp } from '../webapps/pagesApi';
import { DeployHistory } from './DeployHistory';
import { DeployKeyCard } from './DeployKeyCard';
import type { GitConfig } from './resource';
import { gitPaths, useGitCall } from './useGitCall';
import { WebhookCard } from './WebhookCard';

type Branches = { branches: { name: string; commit: string }[] };

/** Branch (picked from the repository's), script and health check; saved with PATCH. */
function SettingsCard({ config }: { config: GitConfig }) {
  const { sid, appId, call } = useGitCall();
  const notify = useNotify();
  const client = useQueryClient();
  const [values, setValues] = useState({
    branch: config.branch,
    script: config.script,
    health_path: config.health_path,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const branches = useQuery({
    queryKey: ['gitdeploy', 'branches', sid, appId],
    queryFn: () => call<Branches>('branches'),
    retry: false,
  });
  const names = branches.data?.branches.map((b) => b.name) ?? [];
  if (!names.includes(values.branch)) names.unshift(values.branch);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      const saved = await call<GitConfig>('update', values);
      client.setQueryData(['gitdeploy', sid, appId], saved);
      notify('Saved.', { type: 'success' });
    } catch (failure) {
      setErrors(fieldErrorsOf(failure));
      notify(errorMessage(failure), { type: 'error' });
    }
  };
  return (
    <Paper component="form" onSubmit={save} sx={{ p: 2 }} aria-label="Repository settings">
      <Typography variant="h6" component="h2">
        Repository
      </Typography>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', mb: 1 }}>
        {config.repository}
      </Typography>
      {config.host_fingerprints.length ? (
        <Typography variant="body2" sx={{ mb: 2 }} data-testid="host-key">
          Pinned host key: {config.host_fingerprints.join(', ')}
        </Typography>
      ) : null}
      {branches.error ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The branches could not be read: {errorMessage(branches.error)}. Has the deployment key
          been added to the repository?
        </Alert>
      ) : null}
      <Stack spacing={2}>
        <TextField
          select
          label="Branch"
          value={values.branch}
          onChange={(e) => setValues((v) => ({ ...v, branch: e.target.value }))}
          error={Boolean(errors.branch)}
          helperText={errors.branch ?? (branches.isPending ? 'Reading the branches…' : ' ')}
        >
          {names.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Deployment script"
          multiline
          minRows={4}
          value={values.script}
          onChange={(e) => setValues((v) => ({ ...v, script: e.target.value }))}
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          error={Boolean(errors.script)}
          helperText={errors.script ?? 'bash -e in the new release, before the switch'}
        />
        <TextField
          label="Health check path"
          value={values.health_path}
          onChange={(e) => setValues((v) => ({ ...v, health_path: e.target.value }))}
          error={Boolean(errors.health_path)}
          helperText={errors.health_path ?? ' '}
        />
        <Box>
          <Button type="submit" variant="contained">
            Save
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/** Forget the configuration, after a confirmation; the site keeps its current release. */
function RemoveButton({ name }: { name: string }) {
  const { sid, appId, call } = useGitCall();
  const navigate = useNavigate();
  const notify = useNotify();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = async () => {
    try {
      await call('remove');
      client.removeQueries({ queryKey: ['gitdeploy', sid, appId] });
      notify('Git deployment removed; the site keeps serving its current release.', {
        type: 'success',
      });
      navigate(gitPaths.start(sid, appId));
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setOpen(false);
    }
  };
  return (
    <>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
        Remove git deployment
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Remove git deployment of {name}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The repository, branch, script and webhook are forgotten. The site keeps serving its
            current release; the history stays.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} autoFocus>
            Cancel
          </Button>
          <Button color="error" onClick={() => void remove()}>
            Remove
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** /git-configure: the configured app's repository, key, webhook and deploys. */
export default function GitConfigurePage() {
  const { sid, appId, call } = useGitCall();
  const { app } = useApp();
  const client = useQueryClient();
  const loaded = useQuery({
    queryKey: ['gitdeploy', sid, appId],
    queryFn: () => call<GitConfig>('get'),
    retry: false,
  });
  // A failed load clears what was held: the app is treated as not configured (spec section 8).
  useEffect(() => {
    if (loaded.error) client.removeQueries({ queryKey: ['gitdeploy', sid, appId] });
  }, [loaded.error, client, sid, appId]);
  if (loaded.error) return <Navigate to={gitPaths.start(sid, appId)} replace />;
  if (!loaded.data) return <CircularProgress aria-label="Loading the git configuration" />;
  return (
    <Stack spacing={2} sx={{ maxWidth: 1000 }}>
      <Typography variant="h5" component="h1">
        Git deployment{app ? ` of ${app.name}` : ''}
      </Typography>
      <DeployHistory />
      <SettingsCard key={loaded.data.updated_at} config={loaded.data} />
      {app ? <DeployKeyCard sid={sid} userName={app.sys_user.user_name} /> : null}
      <WebhookCard />
      <Box>
        <RemoveButton name={app?.name ?? 'this app'} />
      </Box>
    </Stack>
  );
}
