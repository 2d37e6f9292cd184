import { Box, Card, CardContent, LinearProgress } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { DnsRecord, DnsZone } from './schemas';
import { LoadError, NotFoundState } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { useStackdeckData } from '../../src/hooks';
import { RecordForm } from './RecordForm';

/** /add-dns/{id}: add a record to zone {id} of the account `?label=`. */
export default function AddDnsPage() {
  const { id } = useParams();
  const zoneId = Number(id);
  const [params] = useSearchParams();
  const label = params.get('label') ?? '';
  const zones = useGetList<DnsZone>(
    'dns-zones',
    {
      filter: { label },
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'name', order: 'ASC' },
    },
    { enabled: Boolean(label) },
  );
  const zone = zones.data?.find((z) => z.id === zoneId);
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const back = `/dns-records?label=${encodeURIComponent(label)}&zone=${zoneId}`;

  const toZones = {
    to: label ? `/dns-records?label=${encodeURIComponent(label)}` : '/dns-records',
    label: 'Back to DNS records',
  };
  if (label && zones.error) return <LoadError error={zones.error} what="DNS zone" back={toZones} />;
  if (label && zones.isPending) return <LinearProgress aria-label="Loading the zone" />;
  if (!zone) return <NotFoundState what="DNS zone" back={toZones} />;

  return (
    <Box>
      <PageHeader title={`Add a record to ${zone.name}`} />
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <CardContent>
          <RecordForm
            submitLabel="Add record"
            onCancel={() => navigate(back)}
            save={async (values) => {
              const made = await dataProvider.action<DnsRecord>('dns-records', 'create', {
                params: { zoneId },
                query: { label },
                body: values,
              });
              await queryClient.invalidateQueries({ queryKey: ['dns-records'] });
              notify(`Added ${made.type} ${made.fqdn}`, { type: 'success' });
              navigate(back);
            }}
          />
        </CardContent>
      </Card>
    </Box>
  );
}
