import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCreate, useDelete, useGetList, useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import {
  type DnsRecord,
  type DnsRecordInput,
  type DnsZone,
  zoneName,
} from '../../../resources/dns';
import { INTEGRATIONS } from '../../../resources/integrations';
import { EmptyState } from '../../generic/EmptyState';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { useDnsAccounts } from './DnsPage';
import { RecordForm } from './RecordForm';
import { TablePager, usePaging } from '../../generic/TablePager';

const ZONES_PER_PAGE = 25;

function detailsOf(r: DnsRecord): string {
  if (r.type === 'MX') return `priority ${r.priority}`;
  if (r.type === 'SRV') return `priority ${r.priority}, weight ${r.weight}, port ${r.port}`;
  if (r.type === 'CAA') return `${r.flags} ${r.tag}`;
  return '';
}

/** The records of one zone: a paged table with add, edit and delete. */
function ZoneRecords({ zone, label }: { zone: DnsZone; label: string }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const paging = usePaging(25);
  const { page, perPage } = paging;
  const [editing, setEditing] = useState<DnsRecord | null>(null);
  const [removing, setRemoving] = useState<DnsRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const key = ['dns-records', zone.provider, label, zone.name, page, perPage];
  const records = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: DnsRecord[]; total: number }>(
        'dns-records',
        zone.provider === 'powerdns' ? 'listPowerdns' : 'listCloudflare',
        { query: { label, domain: zone.name, page: page + 1, perPage }, signal },
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['dns-records'] });

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await dataProvider.action('dns-records', 'delete', {
        params: { zoneId: zone.id, recordId: removing.id },
        query: { label },
      });
      notify(`Deleted ${removing.type} ${removing.fqdn}`, { type: 'success' });
      await refresh();
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="records-title">
      <CardContent>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}
        >
          <Typography id="records-title" variant="h6" component="h2">
            Records of {zone.name}
          </Typography>
          <Button
            variant="contained"
            component={Link}
            to={`/add-dns/${zone.id}?label=${encodeURIComponent(label)}`}
          >
            Add record
          </Button>
        </Stack>
        {records.error ? (
          <Typography color="error">{errorMessage(records.error)}</Typography>
        ) : records.data && records.data.total === 0 ? (
          <EmptyState title="No records yet" text="Add the first record of this zone." />
        ) : (
          <>
            <Table size="small" aria-label={`Records of ${zone.name}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Type</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Content</TableCell>
                  <TableCell>Details</TableCell>
                  <TableCell>TTL</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(records.data?.data ?? []).map((r) => (
                  <TableRow key={r.id}>
                    <TableCell>{r.type}</TableCell>
                    <TableCell>{r.name}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{r.content}</TableCell>
                    <TableCell>{detailsOf(r)}</TableCell>
                    <TableCell>{r.ttl}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Button
                        size="small"
                        onClick={() => setEditing(r)}
                        aria-label={`Edit ${r.type} ${r.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setRemoving(r)}
                        aria-label={`Delete ${r.type} ${r.name}`}
                      >
                        Delete
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <TablePager paging={paging} total={records.data?.total} options={[10, 25, 50, 100]} />
          </>
        )}
      </CardContent>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} fullWidth maxWidth="sm">
        <DialogTitle>Edit record</DialogTitle>
        <DialogContent>
          {editing ? (
            <RecordForm
              record={editing}
              submitLabel="Save"
              onCancel={() => setEditing(null)}
              save={async (values: DnsRecordInput) => {
                await dataProvider.action('dns-records', 'update', {
                  params: { zoneId: zone.id, recordId: editing.id },
                  query: { label },
                  body: values,
                });
                notify('Record saved', { type: 'success' });
                setEditing(null);
                await refresh();
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
      <Confirm
        isOpen={removing !== null}
        loading={busy}
        title={`Delete ${removing?.type ?? ''} ${removing?.fqdn ?? ''}?`}
        content="The record is removed at the provider right away."
        confirm="Delete"
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}

/** /dns-records: accounts → zones → records; with no DNS account the entry rule opens /dns. */
export default function DnsRecordsPage() {
  const accounts = useDnsAccounts();
  const [params, setParams] = useSearchParams();
  const notify = useNotify();
  const list = accounts.data ?? [];
  const label = params.get('label') ?? list[0]?.label ?? '';
  const account = list.find((a) => a.label === label);
  const [zonePage, setZonePage] = useState(0);
  const zones = useGetList<DnsZone>(
    'dns-zones',
    {
      filter: { label },
      pagination: { page: zonePage + 1, perPage: ZONES_PER_PAGE },
      sort: { field: 'name', order: 'ASC' },
    },
    { enabled: Boolean(account) },
  );
  const zoneId = Number(params.get('zone')) || null;
  const zone = zones.data?.find((z) => z.id === zoneId);
  const [newZone, setNewZone] = useState('');
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [create, { isPending: creating }] = useCreate<DnsZone>();
  const [removeZone, { isPending: deletingZone }] = useDelete<DnsZone>();
  const [dropping, setDropping] = useState<DnsZone | null>(null);

  if (!accounts.isPending && !accounts.error && (accounts.total ?? 0) === 0)
    return <Navigate to="/dns" replace />;

  const select = (next: Record<string, string>) => setParams(next);

  const addZone = (event: FormEvent) => {
    event.preventDefault();
    const parsed = zoneName.safeParse(newZone);
    if (!parsed.success) {
      setZoneError(parsed.error.issues[0]?.message ?? 'A domain like example.com');
      return;
    }
    setZoneError(null);
    create(
      'dns-zones',
      { data: { name: parsed.data }, meta: { query: { label } } },
      {
        onSuccess: (made) => {
          notify(`Zone ${made.name} created`, { type: 'success' });
          setNewZone('');
          select({ label, zone: String(made.id) });
        },
        onError: (e) => setZoneError(errorMessage(e)),
      },
    );
  };

  const dropZone = () => {
    if (!dropping) return;
    removeZone(
      'dns-zones',
      { id: dropping.id, previousData: dropping, meta: { query: { label } } },
      {
        onSuccess: () => {
          notify(`Zone ${dropping.name} deleted`, { type: 'success' });
          setDropping(null);
          select({ label });
        },
        onError: (e) => {
          notify(errorMessage(e), { type: 'error' });
          setDropping(null);
        },
      },
    );
  };

  return (
    <Box>
      <PageHeader
        title="DNS records"
        description="Zones and records at your DNS provider accounts."
        actions={
          <Button component={Link} to="/3rd-party-api-key?integration=powerdns">
            Add a DNS account
          </Button>
        }
      />
      <Stack spacing={3}>
        <Card variant="outlined">
          <CardContent>
            <Stack
              direction={{ xs: 'column', md: 'row' }}
              spacing={2}
              sx={{ alignItems: { md: 'center' } }}
            >
              <TextField
                select
                label="Account"
                value={account ? label : ''}
                onChange={(e) => {
                  setZonePage(0);
                  select({ label: e.target.value });
                }}
                sx={{ minWidth: 240 }}
                size="small"
              >
                {list.map((a) => (
                  <MenuItem key={a.id} value={a.label}>
                    {a.label} ({INTEGRATIONS[a.integration].name})
                  </MenuItem>
                ))}
              </TextField>
              <Box
                component="form"
                onSubmit={addZone}
                noValidate
                sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
              >
                <TextField
                  size="small"
                  label="New zone"
                  placeholder="example.com"
                  value={newZone}
                  onChange={(e) => setNewZone(e.target.value)}
                  error={zoneError !== null}
                  helperText={zoneError ?? ' '}
                  disabled={!account}
                />
                <Button
                  type="submit"
                  variant="outlined"
                  disabled={!account || creating}
                  sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
                >
                  Add zone
                </Button>
              </Box>
            </Stack>
            {zones.error ? (
              <Typography color="error">{errorMessage(zones.error)}</Typography>
            ) : zones.data && zones.total === 0 ? (
              <EmptyState
                title="No zones yet"
                text="Add a zone (a domain) to this account to manage its records."
              />
            ) : (
              <>
                <Table size="small" aria-label="Zones">
                  <TableHead>
                    <TableRow>
                      <TableCell>Zone</TableCell>
                      <TableCell align="right">Actions</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {(zones.data ?? []).map((z) => (
                      <TableRow key={z.id} selected={z.id === zoneId}>
                        <TableCell>{z.name}</TableCell>
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                          <Button
                            size="small"
                            onClick={() => select({ label, zone: String(z.id) })}
                            aria-label={`Records of ${z.name}`}
                          >
                            Records
                          </Button>
                          <Button
                            size="small"
                            color="error"
                            onClick={() => setDropping(z)}
                            aria-label={`Delete zone ${z.name}`}
                          >
                            Delete
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                <TablePagination
                  component="div"
                  count={zones.total ?? 0}
                  page={zonePage}
                  rowsPerPage={ZONES_PER_PAGE}
                  rowsPerPageOptions={[ZONES_PER_PAGE]}
                  onPageChange={(_, p) => setZonePage(p)}
                />
              </>
            )}
          </CardContent>
        </Card>
        {zone ? <ZoneRecords key={zone.id} zone={zone} label={label} /> : null}
      </Stack>
      <Confirm
        isOpen={dropping !== null}
        loading={deletingZone}
        title={`Delete zone ${dropping?.name ?? ''}?`}
        content="The zone and all its records are deleted at the provider. This cannot be undone."
        confirm="Delete zone"
        onConfirm={dropZone}
        onClose={() => setDropping(null)}
      />
    </Box>
  );
}
