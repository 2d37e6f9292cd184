import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Form, useUpdate } from 'ra-core';
import type { FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { type Server, serverInput } from '../../../resources/servers';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { ServerFields } from './ServerFields';

type ServerInput = z.infer<typeof serverInput>;

const FIELDS = ['name', 'ip4', 'provider'] as const;
const resolver = schemaResolver(serverInput);

/** What the user told about the server so far; a field not told yet is empty. */
const savedOf = (server: Server): Record<(typeof FIELDS)[number], string | null> => ({
  name: server.pending_name,
  ip4: server.ip4,
  provider: server.provider,
});

/**
 * A pending server's name, IP address and provider, changed with `PUT servers/{sid}` (the
 * name is kept as its pending name until the agent connects), then on to its install. Only
 * what changed is sent; a field left empty keeps what was saved.
 */
export function PendingServerForm({ server }: { server: Server }) {
  const [update] = useUpdate<Server>();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const defaultValues = useMemo<FieldValues>(() => savedOf(server), [server]);
  const onSubmit = useSubmitHandler<ServerInput>(
    FIELDS,
    async (values) => {
      const saved = savedOf(server);
      const changed: ServerInput = {};
      for (const field of FIELDS) {
        const value = values[field];
        if (value !== undefined && value !== saved[field]) changed[field] = value;
      }
      if (Object.keys(changed).length > 0) {
        await update(
          'servers',
          { id: server.id, data: changed, previousData: server },
          { mutationMode: 'pessimistic', returnPromise: true },
        );
        await queryClient.invalidateQueries({ queryKey: ['servers'] });
      }
      navigate(`/server-install/${server.id}`);
    },
    null,
  );

  return (
    <Form
      key={server.id}
      defaultValues={defaultValues}
      resolver={resolver}
      onSubmit={onSubmit}
      noValidate
    >
      <ServerFields
        nameHelp={`How the server shows in the panel. It keeps ${server.name} until its agent connects.`}
        submitLabel="Save and continue to the install"
      />
    </Form>
  );
}
