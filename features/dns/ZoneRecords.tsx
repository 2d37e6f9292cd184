import {
  Button,
  Card,
  CardContent,
  Dialog,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type DnsRecord, type DnsRecordInput, type DnsZone } from './schemas';
import { EmptyState } from '../../src/generic/EmptyState';
import { LoadError } from '../../src/generic/LoadState';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { RecordForm } from './RecordForm';
import { TablePager, usePaging } from '../../src/generic/TablePager';

function detailsOf(r: DnsRecord): string {
  if (r.type === 'MX') return `priority ${r.priority}`;
  if (r.type === 'SRV') return `priority ${r.priority}, weight ${r.weight}, port ${r.port}`;
  if (r.type === 'CAA') return `${r.flags} ${r.tag}`;
  return '';
}

/** The records of one zone: a paged table with add, edit and delete. */
export function ZoneRecords({ zone, label }: { zone: DnsZone; label: string }) {
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
          <LoadError
            inline
            error={records.error}
            what="records"
            back={{
              to: `/dns-records?label=${encodeURIComponent(label)}`,
              label: 'Back to the zones',
            }}
            onRetry={() => void records.refetch()}
          />
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
