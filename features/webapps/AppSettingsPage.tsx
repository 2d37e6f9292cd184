import { useEffect, useState } from 'react';
import { Alert, Button, Card, CardContent, Grid, MenuItem, Stack, TextField } from '@mui/material';
import { useNotify } from 'ra-core';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import type { phpSettings } from './names';
import { STACKS, STACK_LABELS } from './names';
import { webappChange } from './schemas';
import { LimitsCard } from './LimitsCard';
import { useApp } from './useApp';

/** How each PHP setting is named on the page, with its unit. */
const LABELS: Record<keyof typeof phpSettings.shape, string> = {
  memory_limit: 'Memory limit',
  upload_max_filesize: 'Largest upload',
  post_max_size: 'Largest form post',
  max_execution_time: 'Execution time (s)',
  max_input_time: 'Input time (s)',
  max_input_vars: 'Input variables',
  max_children: 'PHP processes at most',
  timezone: 'Time zone',
  disable_functions: 'Disabled functions',
};
const SETTINGS = Object.keys(LABELS) as (keyof typeof LABELS)[];

type Values = Record<string, string>;

/**
 * /app-settings/{serverId}/{webAppId}: the app's PHP version, web stack, document root and PHP
 * settings, checked with the declaration's own schema before the server hears of them, and
 * written into its pool as values the app's code cannot raise; and the limits of its jobs.
 */
export default function AppSettingsPage() {
  const { sid, appId, app, change, saving } = useApp();
  const notify = useNotify();
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!app) return;
    setValues({
      php_version: app.php_version ?? '',
      stack_type: app.stack_type,
      web_root: app.web_root,
      ...Object.fromEntries(SETTINGS.map((k) => [k, String(app.php_settings[k])])),
    });
  }, [app]);
  if (!app) return null;
  const staticSite = app.php_version === null;

  const submit = async () => {
    setProblem(null);
    const body = {
      stack_type: values.stack_type,
      web_root: values.web_root,
      ...(staticSite ? {} : { php_version: values.php_version }),
      php_settings: Object.fromEntries(SETTINGS.map((k) => [k, values[k]])),
    };
    const parsed = webappChange.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [String(i.path.at(-1)), i.message])),
      );
      return;
    }
    setErrors({});
    try {
      await change(parsed.data);
      notify('The settings were applied on the server.', { type: 'success' });
    } catch (error) {
      const fields = (error as { body?: { errors?: Record<string, string> } }).body?.errors;
      if (fields)
        setErrors(
          Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.split('.').pop()!, v])),
        );
      setProblem(errorMessage(error, 'The settings could not be applied.'));
    }
  };
  const field = (name: string, label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={values[name] ?? ''}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? ' '}
      size="small"
      fullWidth
      {...extra}
    />
  );
  return (
    <>
      <PageHeader
        title="App settings"
        description={`PHP and web server settings of ${app.name}.`}
      />
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Card variant="outlined">
        <CardContent
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 4 }}>
              {field('stack_type', 'Stack', {
                select: true,
                children: STACKS.map((s) => (
                  <MenuItem key={s} value={s}>
                    {STACK_LABELS[s]}
                  </MenuItem>
                )),
              })}
            </Grid>
            {staticSite ? null : (
              <Grid size={{ xs: 12, sm: 4 }}>{field('php_version', 'PHP version')}</Grid>
            )}
            <Grid size={{ xs: 12, sm: 4 }}>{field('web_root', 'Document root')}</Grid>
            {staticSite
              ? null
              : SETTINGS.map((k) => (
                  <Grid key={k} size={{ xs: 12, sm: k === 'disable_functions' ? 12 : 4 }}>
                    {field(k, LABELS[k])}
                  </Grid>
                ))}
          </Grid>
          <Stack direction="row" sx={{ mt: 1 }}>
            <Button type="submit" variant="contained" disabled={saving}>
              {saving ? 'Applying…' : 'Save settings'}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <LimitsCard sid={sid} appId={appId} />
    </>
  );
}
