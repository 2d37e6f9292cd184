import { Box, Card, CardContent, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import {
  DNS_PROVIDERS,
  type DnsProviderId,
  INTEGRATIONS,
  type ThirdPartyKey,
} from '../thirdpartykeys/api';
import { PageHeader } from '../../src/generic/PageHeader';
import { useStackdeckData } from '../../src/hooks';
import { CredentialForm } from '../thirdpartykeys/pagesApi';

/** The user's DNS provider accounts, as both entry-rule pages load them. */
export function useDnsAccounts() {
  return useGetList<ThirdPartyKey>('dns-accounts', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'label', order: 'ASC' },
  });
}

/** /dns: connect a DNS provider account; with one already there the entry rule opens /dns-records. */
export default function DnsPage() {
  const { total, isPending, error } = useDnsAccounts();
  const [provider, setProvider] = useState<DnsProviderId>('powerdns');
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  if (!isPending && !error && (total ?? 0) > 0) return <Navigate to="/dns-records" replace />;

  return (
    <Box>
      <PageHeader
        title="DNS"
        description="Connect the DNS provider that serves your domains; then manage its zones and records here."
      />
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            Connect a DNS provider
          </Typography>
          <ToggleButtonGroup
            exclusive
            value={provider}
            onChange={(_, value: DnsProviderId | null) => value && setProvider(value)}
            aria-label="DNS provider"
            sx={{ mb: 2 }}
          >
            {DNS_PROVIDERS.map((p) => (
              <ToggleButton key={p} value={p}>
                {INTEGRATIONS[p].name}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <CredentialForm
            key={provider}
            fixed={provider}
            submitLabel={`Connect ${INTEGRATIONS[provider].name}`}
            save={async ({ label, api_url, secret }) => {
              await dataProvider.action(
                'dns-accounts',
                provider === 'powerdns' ? 'addPowerdns' : 'addCloudflare',
                {
                  body: provider === 'powerdns' ? { label, api_url, secret } : { label, secret },
                },
              );
              await queryClient.invalidateQueries({ queryKey: ['dns-accounts'] });
              await queryClient.invalidateQueries({ queryKey: ['thirdpartykeys'] });
              notify(`${INTEGRATIONS[provider].name} connected`, { type: 'success' });
              navigate('/dns-records');
            }}
          />
        </CardContent>
      </Card>
    </Box>
  );
}
