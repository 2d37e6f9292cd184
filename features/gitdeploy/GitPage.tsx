import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useApp } from '../webapps/pagesApi';
import { DeployKeyCard } from './DeployKeyCard';
import type { GitConfig } from './resource';
import { gitPaths, useGitCall } from './useGitCall';

const EMPTY = { repository: '', branch: 'main', script: '', health_path: '/' };

/**
 * /git: the configuration when there is one (then on to /git-configure), else the form that
 * makes it. A failed load is "not configured" (spec section 8): the form shows.
 */
export default function GitPage() {
  const { sid, appId, call } = useGitCall();
  const { app } = useApp();
  const navigate = useNavigate();
  const notify = useNotify();
  const loaded = useQuery({
    queryKey: ['gitdeploy', sid, appId],
    queryFn: () => call<GitConfig>('get'),
    retry: false,
  });
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (loaded.data) navigate(gitPaths.configure(sid, appId), { replace: true });
  }, [loaded.data, navigate, sid, appId]);

  if (loaded.isPending || loaded.data)
    return <CircularProgress aria-label="Loading the git configuration" />;

  const set = (field: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      await call<GitConfig>('configure', values);
      notify('Repository configured: its host key is pinned.', { type: 'success' });
      navigate(gitPaths.configure(sid, appId));
    } catch (failure) {
      setErrors(fieldErrorsOf(failure));
      notify(errorMessage(failure, 'The repository could not be configured.'), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      <Typography variant="h5" component="h1">
        Git deployment{app ? ` of ${app.name}` : ''}
      </Typography>
      <Alert severity="info">
        Deploy from a git repository: each deploy is cloned into a new release, your deployment
        script runs there, and the site switches to it at once; a failed health check switches back.
      </Alert>
      {app ? <DeployKeyCard sid={sid} userName={app.sys_user.user_name} /> : null}
      <Paper component="form" onSubmit={submit} sx={{ p: 2 }} aria-label="Configure the repository">
        <Stack spacing={2}>
          <TextField
            label="Repository URL"
            value={values.repository}
            onChange={set('repository')}
            required
            autoFocus
            placeholder="git@github.com:team/site.git"
            error={Boolean(errors.repository)}
            helperText={errors.repository ?? 'git@host:owner/repo.git, ssh://… or https://…'}
          />
          <TextField
            label="Branch"
            value={values.branch}
            onChange={set('branch')}
            required
            error={Boolean(errors.branch)}
            helperText={errors.branch ?? 'Pick another from the repository once it is configured'}
          />
          <TextField
            label="Deployment script"
            value={values.script}
            onChange={set('script')}
            multiline
            minRows={4}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
            error={Boolean(errors.script)}
            helperText={
              errors.script ??
              `Run with bash -e in the new release as ${app?.sys_user.user_name ?? "the app's user"}, before the switch`
            }
          />
          <TextField
            label="Health check path"
            value={values.health_path}
            onChange={set('health_path')}
            error={Boolean(errors.health_path)}
            helperText={
              errors.health_path ?? 'Asked through nginx after the switch; 5xx rolls back'
            }
          />
          <Box>
            <Button type="submit" variant="contained" disabled={saving}>
              Configure
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Stack>
  );
}
