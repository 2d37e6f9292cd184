import { Stack } from '@mui/material';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { Form, useGetList } from 'ra-core';
import { SaveButton, SelectInput, TextInput } from 'ra-ui-materialui';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { pubkeyCreate } from '../../../resources/pubkeys';
import type { Sysuser } from '../../../resources/sysusers';
import { SectionCard } from '../../generic/SectionCard';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';
import { useServerPage } from './ServerContext';

const resolver = schemaResolver(pubkeyCreate);
const FIELDS = ['label', 'user_name', 'key'];

/** Adds a public key to a system user's (or root's) authorized_keys. */
export function AddKeyCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const { server } = useServerPage();
  const { data: users } = useGetList<Sysuser>('sysusers', {
    meta: { sid },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'user_name', order: 'ASC' },
  });
  const choices = useMemo(
    () => [
      ...(users ?? [])
        .filter((user) => user.status === 'active' && user.user_name !== 'root')
        .map((user) => ({ id: user.user_name, name: user.user_name })),
      { id: 'root', name: 'root' },
    ],
    [users],
  );
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
      <Form
        key={generation}
        defaultValues={{ label: '', user_name: choices[0]?.id ?? 'root', key: '' }}
        resolver={resolver}
        onSubmit={onSubmit}
        disabled={!online}
        noValidate
      >
        <TextInput size="medium" source="label" label="Name" helperText="e.g. Laptop" fullWidth />
        <SelectInput
          size="medium"
          source="user_name"
          label="System user"
          choices={choices}
          emptyText="Choose a user"
          fullWidth
        />
        <TextInput
          size="medium"
          source="key"
          label="Public key"
          helperText="One line: ssh-ed25519 AAAA… comment"
          multiline
          minRows={3}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
          fullWidth
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <SaveButton label="Add key" icon={<VpnKeyOutlined />} disabled={!online} />
        </Stack>
      </Form>
    </SectionCard>
  );
}
