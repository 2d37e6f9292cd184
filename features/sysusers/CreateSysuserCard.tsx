import { Grid, Stack } from '@mui/material';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { SaveButton } from 'ra-ui-materialui';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { sysuserCreate, sysusers } from './resource';
import { FormMetaContext } from '../../src/generic/formMeta';
import { formFields, inputSchemaOf } from '../../src/generic/formModel';
import { generatePassword } from '../../src/generic/passwords';
import { SchemaInput } from '../../src/generic/SchemaInput';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';

const schema = inputSchemaOf(sysusers, 'create');
const resolver = schemaResolver(sysuserCreate);
/** The declared inputs: labels, help, the availability check and the password generator. */
const FIELDS = formFields(sysusers, 'create');
const NAMES = FIELDS.map((f) => f.name);
/** Side by side under the name and password. */
const QUOTAS = new Set(['quota_hard', 'quota_soft']);
const EMPTY = { user_name: '', password: '', quota_hard: 0, quota_soft: 0 };
/** The name check sends a create body: a generated password stands in until one is typed. */
const STAND_INS = { password: () => generatePassword() };

/** Create a system user: name checked as it is typed, password generator, quotas. */
export function CreateSysuserCard({
  sid,
  online,
  onCreated,
}: {
  sid: number;
  online: boolean;
  /** After the server made the user (a page that goes on with it: a new account's app). */
  onCreated?: (userName: string) => void;
}) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const meta = useMemo(() => ({ sid }), [sid]);
  const onSubmit = useSubmitHandler<z.infer<typeof sysuserCreate>>(
    NAMES,
    async (values) => {
      await dp.create('sysusers', { meta: { sid }, data: values });
      await queryClient.invalidateQueries({ queryKey: ['sysusers'] });
      setGeneration((n) => n + 1);
      onCreated?.(values.user_name);
    },
    'System user created.',
  );
  const input = (name: string) => {
    const field = FIELDS.find((f) => f.name === name);
    if (!field) return null;
    // Offline, no availability check is asked: the server could not answer it.
    const shown =
      !online && field.widget?.kind === 'availability' ? { ...field, widget: undefined } : field;
    return (
      <SchemaInput
        key={name}
        field={shown}
        resource={sysusers.name}
        schema={schema}
        standIns={STAND_INS}
      />
    );
  };
  return (
    <SectionCard
      id="create-sysuser"
      title="New system user"
      subtitle="A Linux account on the server: its own home, SSH keys and web apps."
      icon={PersonAddOutlined}
    >
      <FormMetaContext.Provider value={meta}>
        <Form
          key={generation}
          defaultValues={EMPTY}
          resolver={resolver}
          onSubmit={onSubmit}
          disabled={!online}
          noValidate
        >
          {NAMES.filter((name) => !QUOTAS.has(name)).map(input)}
          <Grid container spacing={2}>
            {NAMES.filter((name) => QUOTAS.has(name)).map((name) => (
              <Grid key={name} size={{ xs: 12, sm: 6 }}>
                {input(name)}
              </Grid>
            ))}
          </Grid>
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton
              label="Create system user"
              icon={<PersonAddOutlined />}
              disabled={!online}
            />
          </Stack>
        </Form>
      </FormMetaContext.Provider>
    </SectionCard>
  );
}
