import { useState } from 'react';
import {
  Card,
  CardContent,
  CardHeader,
  IconButton,
  MenuItem,
  TableCell,
  TableRow,
  TextField,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { QueryTable } from '../../src/generic/QueryTable';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { TempRule } from './resource';
import { FormRow } from './FormRow';
import { useFirewallQuery, useFirewallRefresh } from './useFirewall';

const left = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
    : s >= 60
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${s} s`;

/** Temporary allow and deny rules (nft timeout sets), with the time each has left. */
export function TempRulesCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useFirewallRefresh(sid);
  const allow = useFirewallQuery<{ data: TempRule[] }>(sid, 'trules', 'allowList');
  const deny = useFirewallQuery<{ data: TempRule[] }>(sid, 'trules', 'denyList');
  const [form, setForm] = useState({ kind: 'deny', ip: '', ttl: '3600', port: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [ending, setEnding] = useState<TempRule | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = [...(allow.data?.data ?? []), ...(deny.data?.data ?? [])];

  const add = async () => {
    setBusy(true);
    setErrors({});
    try {
      await dp.action('trules', `${form.kind}Add`, {
        params: { sid },
        body: { ip: form.ip, ttl: Number(form.ttl), port: form.port ? Number(form.port) : null },
      });
      setForm({ ...form, ip: '', port: '' });
      await refresh();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const end = async (rule: TempRule) => {
    try {
      await dp.action('trules', `${rule.kind}Remove`, { params: { sid, id: rule.id } });
      await refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setEnding(null);
    }
  };
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader
        title="Temporary rules"
        subheader="Allow or deny an address for a while; nft drops the rule when its time is up."
      />
      <CardContent>
        <FormRow
          sx={{ mb: 2 }}
          onSubmit={() => void add()}
          submitLabel="Add rule"
          disabled={busy || !form.ip.trim() || !online}
        >
          <TextField
            select
            size="small"
            label="Rule"
            value={form.kind}
            onChange={(e) => setForm({ ...form, kind: e.target.value })}
            sx={{ width: 110 }}
          >
            <MenuItem value="deny">Deny</MenuItem>
            <MenuItem value="allow">Allow</MenuItem>
          </TextField>
          <TextField
            size="small"
            label="IP address"
            value={form.ip}
            onChange={(e) => setForm({ ...form, ip: e.target.value })}
            error={Boolean(errors.ip)}
            helperText={errors.ip ?? ' '}
          />
          <TextField
            size="small"
            label="Seconds"
            type="number"
            value={form.ttl}
            onChange={(e) => setForm({ ...form, ttl: e.target.value })}
            error={Boolean(errors.ttl)}
            helperText={errors.ttl ?? ' '}
            sx={{ width: 120 }}
          />
          <TextField
            size="small"
            label="TCP port (optional)"
            type="number"
            value={form.port}
            onChange={(e) => setForm({ ...form, port: e.target.value })}
            error={Boolean(errors.port)}
            helperText={errors.port ?? ' '}
            sx={{ width: 160 }}
          />
        </FormRow>
        <QueryTable
          query={{
            isPending: allow.isPending || deny.isPending,
            error: allow.error ?? deny.error,
            data: rows,
          }}
          failed="The temporary rules could not be read."
          empty="No temporary rules are running."
          label="Temporary rules"
          columns={['Rule', 'IP address', 'Port', 'Time left', '']}
        >
          {(shown) =>
            shown.map((r) => (
              <TableRow key={`${r.kind}-${r.id}`}>
                <TableCell>{r.kind}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{r.ip}</TableCell>
                <TableCell>{r.port ?? 'all'}</TableCell>
                <TableCell>{left(r.time_left)}</TableCell>
                <TableCell align="right">
                  <IconButton aria-label={`End the rule for ${r.ip}`} onClick={() => setEnding(r)}>
                    <DeleteOutline />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </CardContent>
      <Confirm
        isOpen={ending !== null}
        title={`End the temporary ${ending?.kind ?? ''} of ${ending?.ip ?? ''}?`}
        content="The rule leaves the server firewall now."
        confirm="End rule"
        onConfirm={() => ending && void end(ending)}
        onClose={() => setEnding(null)}
      />
    </Card>
  );
}
