import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CardHeader,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useNotify } from 'ra-core';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { FirewallSettings, FirewallStatus } from './resource';
import { FormRow } from './FormRow';
import { useFirewallQuery, useFirewallRefresh } from './useFirewall';

const LIMITS = [
  ['syn_flood_rate', 'SYN flood rate (per second)'],
  ['syn_flood_burst', 'SYN flood burst'],
  ['conn_limit', 'Connections per IP (0: no limit)'],
  ['port_flood_hits', 'Port flood: new connections (0: off)'],
  ['port_flood_seconds', 'Port flood: within seconds'],
] as const;
type Limit = (typeof LIMITS)[number][0];

/** Status, the enable and DDoS switches, the DDoS limits and the service actions. */
export function SettingsCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useFirewallRefresh(sid);
  const settings = useFirewallQuery<FirewallSettings>(sid, 'csf', 'read');
  const [limits, setLimits] = useState<Partial<Record<Limit, string>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FirewallStatus | null>(null);

  const save = async (body: Record<string, unknown>, done: string) => {
    setBusy(true);
    setErrors({});
    try {
      await dp.action('csf', 'change', { params: { sid }, body });
      notify(done, { type: 'success' });
      setLimits({});
      await refresh();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const service = async (action: string) => {
    setBusy(true);
    try {
      setStatus(
        await dp.action<FirewallStatus>('csf', 'service', { params: { sid }, query: { action } }),
      );
      if (action !== 'status') notify(`Firewall ${action}: done.`, { type: 'success' });
      await refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const s = settings.data;
  if (!s)
    return settings.error ? <Alert severity="error">{errorMessage(settings.error)}</Alert> : null;
  const value = (k: Limit) => limits[k] ?? String(s[k]);
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader
        title="Firewall"
        subheader={
          s.enabled
            ? 'Enabled: only the open ports and allowed addresses get in'
            : 'Disabled: nothing is filtered'
        }
      />
      <CardContent>
        <Stack direction="row" spacing={3} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <FormControlLabel
            control={
              <Switch
                checked={s.enabled}
                disabled={busy || !online}
                onChange={(_, on) =>
                  void save({ enabled: on }, on ? 'Firewall enabled.' : 'Firewall disabled.')
                }
              />
            }
            label="Firewall enabled"
          />
          <FormControlLabel
            control={
              <Switch
                checked={s.ddos_status}
                disabled={busy || (!online && s.enabled)}
                onChange={(_, on) =>
                  void save({ ddos_status: on }, `DDoS protection ${on ? 'on' : 'off'}.`)
                }
              />
            }
            label="DDoS protection"
          />
        </Stack>
        <FormRow
          spacing={1}
          onSubmit={() =>
            void save(
              Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, Number(v)])),
              'DDoS limits saved.',
            )
          }
          submitLabel="Save limits"
          disabled={busy || Object.keys(limits).length === 0}
        >
          {LIMITS.map(([key, label]) => (
            <TextField
              key={key}
              size="small"
              type="number"
              label={label}
              value={value(key)}
              onChange={(e) => setLimits({ ...limits, [key]: e.target.value })}
              error={Boolean(errors[key])}
              helperText={errors[key] ?? ' '}
              sx={{ width: 210 }}
            />
          ))}
        </FormRow>
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          {(['status', 'reload', 'restart', 'start', 'stop'] as const).map((a) => (
            <Button key={a} size="small" disabled={busy || !online} onClick={() => void service(a)}>
              {a}
            </Button>
          ))}
        </Stack>
        {status ? (
          <Typography variant="body2" sx={{ mt: 1 }} data-testid="firewall-status">
            {status.running ? 'Running' : 'Not running'} · allow {status.counts.allow} · deny{' '}
            {status.counts.deny} · temporary {status.counts.temp_allow + status.counts.temp_deny} ·
            SSH port {status.ssh_ports.join(', ')} always open
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}
