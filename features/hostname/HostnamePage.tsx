import { Box, Stack, Typography } from '@mui/material';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { Form } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import { z } from 'zod';
import { hostname } from '../../resources/agent/validators';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';

/** The body of `PUT hostname/servers/...`, built from the shared host-name rule. */
const hostnameBody = z.object({ hostname });
const resolver = schemaResolver(hostnameBody);
const FIELDS = ['hostname'];

/** /hostname/{id}: the server's host name, set on the server itself. */
export default function HostnamePage() {
  const { sid, server, live, online, refetchServer } = useServerPage();
  const dp = useStackdeckData();
  const current = live.report?.hostname ?? server.hostname ?? '';
  const onSubmit = useSubmitHandler<z.infer<typeof hostnameBody>>(
    FIELDS,
    async (values) => {
      await dp.action('servers', 'hostname', { params: { sid }, body: values });
      refetchServer();
    },
    'Host name changed.',
  );

  return (
    <Box>
      <PageHeader title="Hostname" description="The name the server knows itself by." />
      <OfflineNotice what="Changing the host name" />
      <SectionCard id="hostname-form" title="Host name" icon={DnsOutlined}>
        <Typography variant="body2" sx={{ mb: 2 }}>
          Current host name: <strong data-testid="current-hostname">{current || '—'}</strong>
        </Typography>
        <Form
          defaultValues={{ hostname: current }}
          resolver={resolver}
          onSubmit={onSubmit}
          disabled={!online}
          noValidate
        >
          <TextInput
            size="medium"
            source="hostname"
            label="New host name"
            helperText="Letters, digits and hyphens; labels separated by dots (server1.example.com)"
            autoComplete="off"
            fullWidth
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton label="Change host name" disabled={!online} alwaysEnable={online} />
          </Stack>
        </Form>
      </SectionCard>
    </Box>
  );
}
