import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import type { FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { type Server, newServerBody } from '../../../resources/servers';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { ServerFields } from './ServerFields';
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
      <ServerFields
        nameHelp="How the server shows in the panel, e.g. web-1. Left empty, it takes its host name."
        submitLabel={submitLabel}
        autoFocus
      />
    </Form>
  );
}
