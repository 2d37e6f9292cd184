import { Stack } from '@mui/material';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { Form, useGetList } from 'ra-core';
import { SaveButton } from 'ra-ui-materialui';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { pubkeyCreate, pubkeys } from './resource';
import type { Sysuser } from '../sysusers/api';
import { FormMetaContext } from '../../src/generic/formMeta';
import { formFields, inputSchemaOf } from '../../src/generic/formModel';
import { SchemaInput } from '../../src/generic/SchemaInput';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { useServerPage } from '../../src/pages/server/ServerContext';

const schema = inputSchemaOf(pubkeys, 'create');
const resolver = schemaResolver(pubkeyCreate);
/** The declared inputs: name, the system user (root, then the server's users), the key. */
const INPUTS = formFields(pubkeys, 'create');
const FIELDS = INPUTS.map((f) => f.name);

/** Adds a public key to a system user's (or root's) authorized_keys. */
export function AddKeyCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const { server } = useServerPage();
  const meta = useMemo(() => ({ sid }), [sid]);
  // The same read as the reference input's (shared cache): the first active user is chosen
  // when the form opens, else root.
  const { data: users } = useGetList<Sysuser>('sysusers', {
    pagination: { page: 1, perPage: 500 },
    meta,
  });
  const firstUser =
    users?.find((user) => user.status === 'active' && user.user_name !== 'root')?.user_name ??
    'root';
  const onSubmit = useSubmitHandler<z.infer<typeof pubkeyCreate>>(
    FIELDS,
    async (values) => {
      await dp.create('pubkeys', { meta: { sid }, data: values });
      await queryClient.invalidateQueries({ queryKey: ['pubkeys'] });
      setGeneration((n) => n + 1);
    },
    'SSH key added.',
  );
  return (
    <SectionCard
      id="add-key"
      title="Add an SSH key"
      subtitle={
        server.is_shared
          ? "The key's owner can then sign in over SSH as this user. The server's owner sees that you added it, and it is removed from the server when you leave the team."
          : "The key's owner can then sign in over SSH as this user."
      }
      icon={VpnKeyOutlined}
    >
      <FormMetaContext.Provider value={meta}>
        <Form
          key={generation}
          defaultValues={{ label: '', user_name: firstUser, key: '' }}
          resolver={resolver}
          onSubmit={onSubmit}
          disabled={!online}
          noValidate
        >
          {INPUTS.map((field) => (
            <SchemaInput key={field.name} field={field} resource={pubkeys.name} schema={schema} />
          ))}
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton label="Add key" icon={<VpnKeyOutlined />} disabled={!online} />
          </Stack>
        </Form>
      </FormMetaContext.Provider>
    </SectionCard>
  );
}
