import { useState } from 'react';
import { Card, CardContent, CardHeader, TextField } from '@mui/material';
import { useNotify } from 'ra-core';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { FormRow } from './FormRow';
import { useFirewallQuery, useFirewallRefresh } from './useFirewall';

type Ports = { direction: 'in' | 'out'; tcp: string; udp: string };

function Direction({ sid, direction }: { sid: number; direction: 'in' | 'out' }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useFirewallRefresh(sid);
  const action = direction === 'in' ? 'portsIn' : 'portsOut';
  const ports = useFirewallQuery<Ports>(sid, 'csf', action);
  const [edit, setEdit] = useState<{ tcp?: string; udp?: string }>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      await dp.action('csf', direction === 'in' ? 'setPortsIn' : 'setPortsOut', {
        params: { sid },
        body: edit,
      });
      setEdit({});
      notify(`${direction === 'in' ? 'Inbound' : 'Outbound'} ports saved.`, { type: 'success' });
      await refresh();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const label = direction === 'in' ? 'Inbound' : 'Outbound';
  const help =
    direction === 'in'
      ? 'Comma-separated; ranges as 30000-30100'
      : 'Empty: outbound traffic is not filtered';
  return (
    <FormRow
      sx={{ mb: 1 }}
      onSubmit={() => void save()}
      submitLabel={`Save ${label.toLowerCase()}`}
      disabled={busy || Object.keys(edit).length === 0}
    >
      {(['tcp', 'udp'] as const).map((p) => (
        <TextField
          key={p}
          size="small"
          label={`${label} ${p.toUpperCase()}`}
          sx={{ minWidth: 320 }}
          value={edit[p] ?? ports.data?.[p] ?? ''}
          onChange={(e) => setEdit({ ...edit, [p]: e.target.value })}
          error={Boolean(errors[p])}
          helperText={errors[p] ?? help}
        />
      ))}
    </FormRow>
  );
}

/** Inbound and outbound TCP/UDP ports, shown comma-separated as CSF does. */
export function PortsCard({ sid }: { sid: number }) {
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader
        title="Ports"
        subheader="The SSH port in use and the panel's connection are always open."
      />
      <CardContent>
        <Direction sid={sid} direction="in" />
        <Direction sid={sid} direction="out" />
      </CardContent>
    </Card>
  );
}
