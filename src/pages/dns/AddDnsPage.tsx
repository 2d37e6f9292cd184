import { Box, Card, CardContent, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { DnsRecord, DnsZone } from '../../../resources/dns';
import { PageHeader } from '../../generic/PageHeader';
import { useStackdeckData } from '../../hooks';
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

  return (
    <Box>
      <PageHeader title={zone ? `Add a record to ${zone.name}` : 'Add a record'} />
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <CardContent>
          {zone ? (
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
          ) : (
            <Typography color={zones.isPending && label ? 'text.secondary' : 'error'}>
              {zones.isPending && label ? 'Loading…' : 'This zone does not exist.'}
            </Typography>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
