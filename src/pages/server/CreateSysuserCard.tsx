import { Grid, Stack } from '@mui/material';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { NumberInput, SaveButton, TextInput } from 'ra-ui-materialui';
import { useState } from 'react';
import type { z } from 'zod';
import { sysuserCreate } from '../../../resources/sysusers';
import { SectionCard } from '../../generic/SectionCard';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';
import { NameAvailability } from './NameAvailability';
import { PasswordWithGenerator } from './PasswordWithGenerator';

const resolver = schemaResolver(sysuserCreate);
const FIELDS = ['user_name', 'password', 'quota_hard', 'quota_soft'];
const EMPTY = { user_name: '', password: '', quota_hard: 0, quota_soft: 0 };

/** Create a system user: name checked as it is typed, password generator, quotas. */
export function CreateSysuserCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const onSubmit = useSubmitHandler<z.infer<typeof sysuserCreate>>(
    FIELDS,
    async (values) => {
      await dp.create('sysusers', { meta: { sid }, data: values });
      await queryClient.invalidateQueries({ queryKey: ['sysusers'] });
      setGeneration((n) => n + 1);
    },
    'System user created.',
  );
  return (
    <SectionCard
      id="create-sysuser"
      title="New system user"
      subtitle="A Linux account on the server: its own home, SSH keys and web apps."
      icon={PersonAddOutlined}
    >
      <Form
        key={generation}
        defaultValues={EMPTY}
        resolver={resolver}
        onSubmit={onSubmit}
        disabled={!online}
        noValidate
      >
        <TextInput
          size="medium"
          source="user_name"
          label="User name"
          autoComplete="off"
          helperText="Lower-case letters, digits, _ and -, starting with a letter"
          fullWidth
        />
        <NameAvailability sid={sid} disabled={!online} />
        <PasswordWithGenerator />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <NumberInput
              size="medium"
              source="quota_hard"
              label="Hard quota (MB)"
              helperText="0 for no limit"
              min={0}
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <NumberInput
              size="medium"
              source="quota_soft"
              label="Soft quota (MB)"
              helperText="Warns above it; 0 for none"
              min={0}
              fullWidth
            />
          </Grid>
        </Grid>
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <SaveButton label="Create system user" icon={<PersonAddOutlined />} disabled={!online} />
        </Stack>
      </Form>
    </SectionCard>
  );
}
