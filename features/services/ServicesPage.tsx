import { Box, Button, Card, LinearProgress, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServiceStatus } from './resource';
import { AutoUpdatesCard } from '../autoupdates/pagesApi';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { useStackdeckData } from '../../src/hooks';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { SERVICE_LABELS, type ServiceAction, ServiceRow } from './ServiceRow';
import { useServerCall } from '../../src/pages/server/useServerCall';

const DONE: Record<ServiceAction, string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  reload: 'reloaded',
};

/** /services/{id}: the server's services as they run now, with their controls. */
export default function ServicesPage() {
  const { sid, online } = useServerPage();
  const dp = useStackdeckData();
  const call = useServerCall();
  const queryClient = useQueryClient();
  const key = ['services', 'status', sid];
  const { data, error, isPending, isFetching, refetch } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dp.action<{ data: ServiceStatus[] }>('services', 'status', { params: { sid }, signal }),
    enabled: online,
    retry: false,
  });

  const control = async (service: ServiceStatus, action: ServiceAction) => {
    const next = await call<ServiceStatus>(
      'services',
      'control',
      { query: { action }, body: { service: service.name } },
      `${SERVICE_LABELS[service.name] ?? service.name} ${DONE[action]}.`,
    );
    queryClient.setQueryData<{ data: ServiceStatus[] }>(key, (old) =>
      old ? { data: old.data.map((s) => (s.name === next.name ? next : s)) } : old,
    );
  };

  return (
    <Box>
      <PageHeader
        title="Services"
        description="Start, stop, restart or reload what runs on this server."
        actions={
          <Button
            startIcon={<Refresh />}
            onClick={() => void refetch()}
            disabled={!online || isFetching}
          >
            Refresh
          </Button>
        }
      />
      <OfflineNotice what="Service status and controls" />
      <Card variant="outlined">
        {online && isFetching ? <LinearProgress aria-label="Reading services" /> : null}
        <QueryTable
          // Offline, nothing is read: the list stays empty rather than loading.
          query={{ isPending: online && isPending, error, data: data?.data }}
          failed="The services could not be read."
          empty={<Typography sx={{ p: 2 }}>No services reported.</Typography>}
          label="Services"
          size="medium"
          columns={['Service', 'State', '']}
        >
          {(rows) =>
            rows.map((service) => (
              <ServiceRow
                key={service.name}
                service={service}
                disabled={!online}
                control={(action) => control(service, action)}
              />
            ))
          }
        </QueryTable>
      </Card>
      <Box sx={{ mt: 3 }}>
        <AutoUpdatesCard sid={sid} online={online} />
      </Box>
    </Box>
  );
}
