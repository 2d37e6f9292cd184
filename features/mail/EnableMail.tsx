import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  TextField,
} from '@mui/material';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { MailState, preflightSchema } from './resource';

type Checks = z.infer<typeof preflightSchema>;

const CHECKS: { key: keyof Checks; label: string }[] = [
  { key: 'hostname', label: "The server's host name" },
  { key: 'ptr', label: 'Its reverse DNS (PTR)' },
  { key: 'port25', label: 'Port 25 outbound' },
];

/**
 * Mail is off on the server: the preflight's three checks in words, and enabling it, through a
 * smarthost relay where port 25 is closed (its password is kept sealed by the panel).
 */
export function EnableMail({ sid, state }: { sid: number; state: MailState }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [checks, setChecks] = useState<Checks | null>(state.checks);
  const [relay, setRelay] = useState(false);
  const [smarthost, setSmarthost] = useState({ host: '', port: '587', username: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  const run = async (what: 'preflight' | 'enable') => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      if (what === 'preflight')
        setChecks(await dp.action<Checks>('mail', 'preflight', { params: { sid } }));
      else {
        const body = {
          smarthost: relay ? { ...smarthost, port: Number(smarthost.port) } : null,
        };
        await dp.action('mail', 'enable', { params: { sid }, body });
        await queryClient.invalidateQueries({ queryKey: ['mail', sid] });
      }
    } catch (e) {
      setFields(fieldErrorsOf(e));
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof typeof smarthost, label: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      size="small"
      value={smarthost[key]}
      onChange={(e) => setSmarthost({ ...smarthost, [key]: e.target.value })}
      error={Boolean(fields[`smarthost.${key}`])}
      helperText={fields[`smarthost.${key}`]}
      autoComplete={type === 'password' ? 'new-password' : 'off'}
    />
  );

  return (
    <SectionCard id="enable-mail" title="Enable mail on this server">
      <Stack spacing={2}>
        <Box>
          Mail is off on this server. Enabling it installs Postfix, Dovecot and OpenDKIM; first the
          panel checks what other mail servers will see.
        </Box>
        {checks ? (
          <List dense aria-label="Preflight checks">
            {CHECKS.map(({ key, label }) => (
              <ListItem key={key}>
                <ListItemIcon>
                  {checks[key].ok ? (
                    <CheckCircleOutline color="success" />
                  ) : (
                    <ErrorOutline color="warning" />
                  )}
                </ListItemIcon>
                <ListItemText primary={label} secondary={checks[key].message} />
              </ListItem>
            ))}
          </List>
        ) : null}
        <FormControlLabel
          control={<Checkbox checked={relay} onChange={(e) => setRelay(e.target.checked)} />}
          label="Send through a smarthost (your provider's relay), needed when port 25 is closed"
        />
        {relay ? (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {field('host', 'Relay host')}
            {field('port', 'Port')}
            {field('username', 'User name')}
            {field('password', 'Password', 'password')}
          </Stack>
        ) : null}
        {error ? <Alert severity="error">{fields.smarthost ?? error}</Alert> : null}
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" disabled={busy} onClick={() => void run('preflight')}>
            Check
          </Button>
          <Button variant="contained" disabled={busy} onClick={() => void run('enable')}>
            Enable mail
          </Button>
        </Stack>
      </Stack>
    </SectionCard>
  );
}
