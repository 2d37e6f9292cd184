import { Box, Stack } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import type { FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { type Server, newServerBody } from '../../../resources/servers';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';

type NewServer = z.infer<typeof newServerBody>;

const FIELDS = ['name', 'ip4', 'provider'] as const;
const resolver = schemaResolver(newServerBody);
const EMPTY: FieldValues = {};

/**
 * Name the server (IP address and provider are optional, as on the Server entity), create its
 * record, and go on to its install page.
 */
export function ConnectServerForm({ submitLabel }: { submitLabel: string }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onSubmit = useSubmitHandler<NewServer>(
    FIELDS,
    async (values) => {
      const server = await dataProvider.action<Server>('servers', 'lifecycle', {
        query: { action: 'create' },
        body: values,
      });
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
      navigate(`/server-install/${server.id}`);
    },
    null,
  );

  return (
    <Form defaultValues={EMPTY} resolver={resolver} onSubmit={onSubmit} noValidate>
      <TextInput
        source="name"
        label="Server name"
        helperText="How the server shows in the panel, e.g. web-1. Left empty, it takes its host name."
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        <TextInput
          source="ip4"
          label="IP address (optional)"
          helperText="Its public IPv4 address, for your reference."
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 15 } }}
        />
        <TextInput
          source="provider"
          label="Provider (optional)"
          helperText="Where it runs: Hetzner, DigitalOcean, your own rack..."
          fullWidth
          slotProps={{ htmlInput: { maxLength: 64 } }}
        />
      </Stack>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
        <SaveButton label={submitLabel} icon={<ArrowForward />} alwaysEnable />
      </Box>
    </Form>
  );
}
