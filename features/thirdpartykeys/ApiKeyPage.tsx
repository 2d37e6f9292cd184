import { Box, Card, CardContent, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  INTEGRATIONS,
  INTEGRATION_IDS,
  type IntegrationId,
  type ThirdPartyKey,
} from './integrations';
import { PageHeader } from '../../src/generic/PageHeader';
import { useStackdeckData } from '../../src/hooks';
import { CredentialForm } from './CredentialForm';

/**
 * /3rd-party-api-key: enter a credential (`?integration=` preselects the service), or replace a
 * stored one (`?id=`): the new one is checked and sealed like the first.
 */
export default function ApiKeyPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const wanted = params.get('integration');
  const preset = INTEGRATION_IDS.includes(wanted as IntegrationId)
    ? (wanted as IntegrationId)
    : undefined;
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const list = useGetOneKey(id);

  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['thirdpartykeys'] });
    await queryClient.invalidateQueries({ queryKey: ['dns-accounts'] });
    notify(message, { type: 'success' });
    navigate('/3rd-party-integration');
  };

  if (id) {
    const key = list.data;
    return (
      <Box>
        <PageHeader title="Replace a credential" />
        <Card variant="outlined" sx={{ maxWidth: 640 }}>
          <CardContent>
            {key ? (
              <>
                <Typography sx={{ mb: 2 }}>
                  {INTEGRATIONS[key.integration].name}: <strong>{key.label}</strong>, now {key.hint}
                </Typography>
                <CredentialForm
                  fixed={key.integration}
                  replacing={{ label: key.label, api_url: key.api_url, key_id: key.key_id }}
                  submitLabel="Replace"
                  onCancel={() => navigate('/3rd-party-integration')}
                  save={async (values) => {
                    const { integration: _ignored, ...body } = values;
                    void _ignored;
                    await dataProvider.update('thirdpartykeys', {
                      id: key.id,
                      data: body,
                      previousData: key,
                    });
                    await done('Credential replaced');
                  }}
                />
              </>
            ) : (
              <Typography color={list.error ? 'error' : 'text.secondary'}>
                {list.error ? 'This credential does not exist.' : 'Loading…'}
              </Typography>
            )}
          </CardContent>
        </Card>
      </Box>
    );
  }
  return (
    <Box>
      <PageHeader
        title="Add a credential"
        description="For a DNS provider, a cloud provider, a git host or storage."
      />
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <CardContent>
          <CredentialForm
            defaults={preset ? { integration: preset } : undefined}
            submitLabel="Save"
            onCancel={() => navigate('/3rd-party-integration')}
            save={async (values) => {
              await dataProvider.create('thirdpartykeys', { data: values });
              await done(`${INTEGRATIONS[values.integration].name} connected`);
            }}
          />
        </CardContent>
      </Card>
    </Box>
  );
}

/** The stored credential to replace, found in the user's list (there is no single-key read). */
function useGetOneKey(id: number | null) {
  const query = useGetList<ThirdPartyKey>(
    'thirdpartykeys',
    { pagination: { page: 1, perPage: 500 }, sort: { field: 'label', order: 'ASC' } },
    { enabled: id !== null },
  );
  const data = query.data?.find((k) => k.id === id);
  return { data, error: query.error ?? (query.isSuccess && !data ? 'missing' : null) };
}
