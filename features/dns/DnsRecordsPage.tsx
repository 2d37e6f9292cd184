import {
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
} from '@mui/material';
import { useCreate, useDelete, useGetList, useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { type DnsZone, zoneName } from './schemas';
import { INTEGRATIONS } from '../thirdpartykeys/api';
import { EmptyState } from '../../src/generic/EmptyState';
import { LoadError, NotFoundState } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useDnsAccounts } from './DnsPage';
import { ZoneRecords } from './ZoneRecords';

const ZONES_PER_PAGE = 25;

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
  // A zone id in the address that the account does not have (all its zones are on this page).
  const zoneMissing =
    Boolean(params.get('zone')) &&
    !zone &&
    zones.isSuccess &&
    zonePage === 0 &&
    (zones.total ?? 0) <= ZONES_PER_PAGE;
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
              <LoadError
                inline
                error={zones.error}
                what="zones"
                back={{ to: '/dns-records', label: 'Back to DNS records' }}
                onRetry={() => void zones.refetch()}
              />
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
        {zoneMissing ? (
          <Card variant="outlined">
            <NotFoundState
              inline
              what="DNS zone"
              back={{
                to: `/dns-records?label=${encodeURIComponent(label)}`,
                label: 'Back to the zones',
              }}
            />
          </Card>
        ) : null}
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
