import { Box, Button, Chip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { settingsPaths } from './links';
import { apiCredentials } from './resource';

const PROVIDER_NAMES: Record<string, string> = {
  stripe: 'Stripe',
  paypal: 'PayPal',
  vultr: 'Vultr',
};

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** /admin/api: the API credentials the panel uses, secrets never shown. */
export default function ApiCredentialsPage() {
  const add = (
    <Button
      component={Link}
      to={settingsPaths.addCredential}
      variant="contained"
      startIcon={<Add />}
    >
      Add API credential
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={apiCredentials}
        title="API"
        description="The keys the panel itself uses: Stripe and PayPal for payments, Vultr for servers. Secrets are stored encrypted and never shown again; replace a key to rotate it."
        actions={add}
        columns={['provider', 'name', 'key_last4', 'created_by', 'created_at']}
        labels={{ key_last4: 'Key', created_by: 'Added by', created_at: 'Added' }}
        sort={{ field: 'created_at', order: 'DESC' }}
        render={{
          provider: (r: RaRecord) => (
            <Chip size="small" label={PROVIDER_NAMES[String(r.provider)] ?? String(r.provider)} />
          ),
          key_last4: (r: RaRecord) => (
            <Typography sx={mono} aria-label={`Key ending in ${String(r.key_last4)}`}>
              ••••{String(r.key_last4)}
            </Typography>
          ),
        }}
        rowActions={(r: RaRecord) => (
          <Button
            size="small"
            component={Link}
            to={settingsPaths.replaceCredential(r.id)}
            aria-label={`Replace ${String(r.name)}`}
          >
            Replace
          </Button>
        )}
        deletable={{
          what: (r) =>
            `the ${PROVIDER_NAMES[String(r.provider)] ?? ''} credential ${String(r.name)}`,
          consequence: (r) =>
            r.provider === 'vultr'
              ? 'The panel can no longer create or manage Vultr servers until a key is added again.'
              : 'Users can no longer pay this way until a key is added again.',
        }}
        empty={{
          title: 'No API credentials',
          text: 'Add the keys of Stripe, PayPal or Vultr for the panel to use them.',
          icon: KeyOutlined,
          action: add,
        }}
      />
    </Box>
  );
}
