import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Grid,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useDelete, useGetList, useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  INTEGRATIONS,
  INTEGRATION_IDS,
  INTEGRATION_KINDS,
  type IntegrationKind,
  type ThirdPartyKey,
} from './integrations';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';

const KIND_TITLES: Record<IntegrationKind, string> = {
  dns: 'DNS providers',
  cloud: 'Cloud providers',
  git: 'Git hosts',
  storage: 'Storage',
};

/** /3rd-party-integration: every integration, its connected accounts, connect and disconnect. */
export default function IntegrationsPage() {
  const {
    data = [],
    isPending,
    error,
  } = useGetList<ThirdPartyKey>('thirdpartykeys', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'label', order: 'ASC' },
  });
  const [removing, setRemoving] = useState<ThirdPartyKey | null>(null);
  const [remove, { isPending: deleting }] = useDelete<ThirdPartyKey>();
  const notify = useNotify();
  const queryClient = useQueryClient();

  const disconnect = () => {
    if (!removing) return;
    remove(
      'thirdpartykeys',
      { id: removing.id, previousData: removing },
      {
        onSuccess: () => {
          notify(`Disconnected "${removing.label}"`, { type: 'success' });
          void queryClient.invalidateQueries({ queryKey: ['dns-accounts'] });
          setRemoving(null);
        },
        onError: (e) => {
          notify(errorMessage(e), { type: 'error' });
          setRemoving(null);
        },
      },
    );
  };

  return (
    <Box>
      <PageHeader
        title="3rd-party integrations"
        description="Credentials for the services the panel works with. They are stored encrypted and never shown again in full."
        actions={
          <Button component={Link} to="/3rd-party-api-key" variant="contained">
            Add a credential
          </Button>
        }
      />
      {error ? <Typography color="error">{errorMessage(error)}</Typography> : null}
      <Stack spacing={3}>
        {INTEGRATION_KINDS.map((kind) => (
          <Box key={kind} component="section" aria-labelledby={`kind-${kind}`}>
            <Typography id={`kind-${kind}`} variant="h6" component="h2" sx={{ mb: 1 }}>
              {KIND_TITLES[kind]}
            </Typography>
            <Grid container spacing={2}>
              {INTEGRATION_IDS.filter((id) => INTEGRATIONS[id].kind === kind).map((id) => {
                const info = INTEGRATIONS[id];
                const accounts = data.filter((k) => k.integration === id);
                return (
                  <Grid key={id} size={{ xs: 12, md: 6 }}>
                    <Card variant="outlined" component="article" aria-label={info.name}>
                      <CardContent>
                        <Stack
                          direction="row"
                          sx={{ justifyContent: 'space-between', alignItems: 'center' }}
                        >
                          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                            {info.name}
                          </Typography>
                          <Chip
                            size="small"
                            color={accounts.length ? 'success' : 'default'}
                            label={accounts.length ? 'Connected' : 'Not connected'}
                          />
                        </Stack>
                        {accounts.length ? (
                          <List dense>
                            {accounts.map((k) => (
                              <ListItem
                                key={k.id}
                                disableGutters
                                secondaryAction={
                                  <Stack direction="row" spacing={1}>
                                    <Button
                                      size="small"
                                      component={Link}
                                      to={`/3rd-party-api-key?id=${k.id}`}
                                    >
                                      Replace
                                    </Button>
                                    <Button
                                      size="small"
                                      color="error"
                                      onClick={() => setRemoving(k)}
                                    >
                                      Disconnect
                                    </Button>
                                  </Stack>
                                }
                              >
                                <ListItemText
                                  primary={k.label}
                                  secondary={`${info.secretLabel} ${k.hint}`}
                                />
                              </ListItem>
                            ))}
                          </List>
                        ) : (
                          <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
                            {isPending ? 'Loading…' : 'No account connected.'}
                          </Typography>
                        )}
                        <Button
                          size="small"
                          component={Link}
                          to={`/3rd-party-api-key?integration=${id}`}
                        >
                          Connect {info.name}
                        </Button>
                      </CardContent>
                    </Card>
                  </Grid>
                );
              })}
            </Grid>
          </Box>
        ))}
      </Stack>
      <Confirm
        isOpen={removing !== null}
        loading={deleting}
        title={`Disconnect "${removing?.label ?? ''}"?`}
        content="The stored credential is erased. DNS zones of this account stay at the provider but are no longer reachable from the panel."
        confirm="Disconnect"
        onConfirm={disconnect}
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
}
