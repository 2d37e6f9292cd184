import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { BooleanInput } from 'ra-ui-materialui';
import type { FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { type Server, newServerBody } from '../../../resources/servers';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { InstallChanges } from './InstallChanges';
import { ServerFields } from './ServerFields';
import { useStackdeckData } from '../../hooks';

type NewServer = z.infer<typeof newServerBody>;

const FIELDS = ['name', 'ip4', 'provider', 'root_password'] as const;
const resolver = schemaResolver(newServerBody);
const EMPTY: FieldValues = { root_password: false };

/**
 * Name the server (IP address and provider are optional, as on the Server entity), create its
 * record, and go on to its install page. What the install changes is said first; root's
 * password is set only when the box is ticked.
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
      <InstallChanges />
      <ServerFields
        nameHelp="How the server shows in the panel, e.g. web-1. Left empty, it takes its host name."
        submitLabel={submitLabel}
        autoFocus
      >
        <BooleanInput
          source="root_password"
          label="Set a root password"
          helperText="Off: root’s password is left alone. On: when you first open the server, the panel sets a new random root password and shows it once."
        />
      </ServerFields>
    </Form>
  );
}
