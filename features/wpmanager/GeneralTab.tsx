import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { errorMessage } from '../../src/generic/serverErrors';
import type { GeneralSetting, WpGeneral } from './names';
import { useWpCall } from './useWpCall';

const TEXTS: { key: 'title' | 'url' | 'admin_email'; label: string }[] = [
  { key: 'title', label: 'Site title' },
  { key: 'url', label: 'Site address (URL)' },
  { key: 'admin_email', label: 'Administration mail address' },
];
const SWITCHES: { key: 'public' | 'debug' | 'maintenance'; label: string }[] = [
  { key: 'public', label: 'Search engines may index the site' },
  { key: 'debug', label: 'Debug mode (WP_DEBUG)' },
  { key: 'maintenance', label: 'Maintenance mode (visitors see WordPress’s maintenance page)' },
];

/** The general settings form: each change is one `PATCH ...&type=` of the setting. */
export function GeneralTab() {
  const { sid, appId, call } = useWpCall();
  const notify = useNotify();
  const query = useQuery({
    queryKey: ['wpmanager', 'general', sid, appId],
    queryFn: () => call<WpGeneral>('general'),
  });
  const [form, setForm] = useState<WpGeneral | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (query.data) setForm(query.data);
  }, [query.data]);
  if (query.error)
    return <Alert severity="error">{errorMessage(query.error, 'WordPress did not answer.')}</Alert>;
  if (!form || !query.data) return null;
  const saved = query.data;

  const change = async (type: GeneralSetting, value: string | boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const next = await call<WpGeneral>('setGeneral', { query: { type }, body: { value } });
      setForm(next);
      notify('The setting was changed.', { type: 'success' });
      await query.refetch();
    } catch (e) {
      setProblem(errorMessage(e, 'WordPress did not take the setting.'));
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    for (const { key } of TEXTS) if (form[key] !== saved[key]) await change(key, form[key]);
  };
  const dirty = TEXTS.some(({ key }) => form[key] !== saved[key]);
  return (
    <Card variant="outlined">
      <CardContent>
        {problem ? (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {problem}
          </Alert>
        ) : null}
        <Stack spacing={2} sx={{ maxWidth: 560 }}>
          {TEXTS.map(({ key, label }) => (
            <TextField
              key={key}
              label={label}
              size="small"
              value={form[key]}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          ))}
          <Stack direction="row">
            <Button variant="contained" disabled={busy || !dirty} onClick={() => void save()}>
              Save
            </Button>
          </Stack>
          {SWITCHES.map(({ key, label }) => (
            <FormControlLabel
              key={key}
              label={label}
              control={
                <Switch
                  checked={form[key]}
                  disabled={busy}
                  onChange={(_, on) => void change(key, on)}
                />
              }
            />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
