import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  IconButton,
  Stack,
  Tab,
  TableCell,
  TableRow,
  Tabs,
  TextField,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { EmptyState } from '../../src/generic/EmptyState';
import { QueryTable } from '../../src/generic/QueryTable';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { FirewallEntry } from './resource';
import { useFirewallQuery, useFirewallRefresh } from './useFirewall';

const LISTS = [
  {
    key: 'allow',
    label: 'Allow',
    text: 'Always let in, on every port (checked before the deny list).',
  },
  { key: 'deny', label: 'Deny', text: 'Never let in (the SSH port and the panel stay reachable).' },
  {
    key: 'ignore',
    label: 'Ignore',
    text: 'Never banned for failed logins (fail2ban); not a firewall rule.',
  },
] as const;
/** Spec: the success text after a removal shows 3 seconds, then clears. */
const MESSAGE_MS = 3000;

/** The allow, deny and ignore lists: add, and remove by row after a confirmation. */
export function ListsCard({
  sid,
  online,
  running,
}: {
  sid: number;
  online: boolean;
  running: boolean;
}) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useFirewallRefresh(sid);
  const [tab, setTab] = useState<(typeof LISTS)[number]['key']>('allow');
  const [ip, setIp] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<FirewallEntry | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const entries = useFirewallQuery<{ data: FirewallEntry[]; total: number }>(
    sid,
    'csf-lists',
    `${tab}List`,
  );
  const list = LISTS.find((l) => l.key === tab)!;
  const needsServer = running && tab !== 'ignore' && !online;

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const add = async () => {
    setBusy(true);
    setErrors({});
    try {
      await dp.action('csf-lists', `${tab}Add`, { params: { sid }, body: { ip, comment } });
      setIp('');
      setComment('');
      notify(`${ip} added to the ${tab} list.`, { type: 'success' });
      await refresh();
    } catch (error) {
      // The typed address stays, with the reason at its field.
      setErrors(fieldErrorsOf(error));
      if (!Object.keys(fieldErrorsOf(error)).length) notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (entry: FirewallEntry) => {
    setBusy(true);
    try {
      const res = await dp.action<{ message: string }>('csf-lists', `${tab}RemoveId`, {
        params: { sid, id: entry.id },
      });
      setMessage(res.message);
      await refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  const rows = entries.data?.data ?? [];
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader title="IP lists" />
      <Tabs
        value={tab}
        onChange={(_, v: typeof tab) => {
          setTab(v);
          setErrors({});
        }}
        sx={{ px: 2 }}
      >
        {LISTS.map((l) => (
          <Tab key={l.key} value={l.key} label={l.label} />
        ))}
      </Tabs>
      <CardContent>
        {message ? (
          <Alert severity="success" sx={{ mb: 2 }} role="status">
            {message}
          </Alert>
        ) : null}
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <TextField
            size="small"
            label="IP address or CIDR"
            value={ip}
            onChange={(e) => setIp(e.target.value)}
            error={Boolean(errors.ip)}
            helperText={errors.ip ?? list.text}
            sx={{ minWidth: 280 }}
          />
          <TextField
            size="small"
            label="Comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            error={Boolean(errors.comment)}
            helperText={errors.comment ?? ' '}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={busy || !ip.trim() || needsServer}>
              Add
            </Button>
          </Box>
        </Stack>
        <QueryTable
          query={{ ...entries, data: rows }}
          failed={`The ${tab} list could not be read.`}
          empty={
            <EmptyState title={`The ${tab} list is empty`} text={list.text} icon={ShieldOutlined} />
          }
          label={`${list.label} list`}
          columns={['IP address', 'Comment', 'Added', '']}
        >
          {(shown) =>
            shown.map((r) => (
              <TableRow key={r.id} data-testid={`entry-${r.ip}`}>
                <TableCell sx={{ fontFamily: 'monospace' }}>{r.ip}</TableCell>
                <TableCell>{r.comment}</TableCell>
                <TableCell>{new Date(r.created_at).toLocaleString()}</TableCell>
                <TableCell align="right">
                  <IconButton
                    aria-label={`Remove ${r.ip}`}
                    disabled={busy || needsServer}
                    onClick={() => setRemoving(r)}
                  >
                    <DeleteOutline />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
        {(entries.data?.total ?? 0) > rows.length ? (
          <Alert severity="info" sx={{ mt: 1 }}>
            Showing the newest {rows.length} of {entries.data?.total}.
          </Alert>
        ) : null}
      </CardContent>
      <Confirm
        isOpen={removing !== null}
        loading={busy}
        title={`Remove ${removing?.ip ?? ''}?`}
        content={`It leaves the ${tab} list${tab === 'ignore' ? '' : ' and the server firewall at once'}.`}
        confirm="Remove"
        confirmColor="warning"
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
