import { Alert, LinearProgress, Stack } from '@mui/material';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { BooleanInput, NumberInput, SaveButton } from 'ra-ui-materialui';
import { type SshSettings, sshSettingsSchema } from './resource';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { errorMessage } from '../../src/generic/serverErrors';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';

const resolver = schemaResolver(sshSettingsSchema);
const FIELDS = ['port', 'password_authentication', 'permit_root_login'];

/** sshd's port, password login and root login, read live; sshd checks a change before it reloads. */
export function SshSettingsCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const key = ['sshconfig', sid];
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dp.action<SshSettings>('sshconfig', 'read', { params: { sid }, signal }),
    enabled: online,
    retry: false,
  });
  const onSubmit = useSubmitHandler<SshSettings>(
    FIELDS,
    async (values) => {
      const changed = Object.fromEntries(
        Object.entries(values).filter(
          ([field, value]) => data?.[field as keyof SshSettings] !== value,
        ),
      );
      const next = await dp.action<SshSettings>('sshconfig', 'change', {
        params: { sid },
        body: changed,
      });
      queryClient.setQueryData(key, next);
    },
    'SSH settings saved and sshd reloaded.',
  );
  return (
    <SectionCard
      id="ssh-settings"
      title="SSH settings"
      subtitle="Checked with sshd -t before the reload: a refused change is rolled back."
      icon={SettingsOutlined}
    >
      {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
      {online && isPending ? <LinearProgress aria-label="Reading SSH settings" /> : null}
      {!online ? <Alert severity="info">Read from the server when it is online.</Alert> : null}
      {data ? (
        <Form
          key={JSON.stringify(data)}
          defaultValues={data}
          resolver={resolver}
          onSubmit={onSubmit}
          disabled={!online}
          noValidate
        >
          <NumberInput size="medium" source="port" label="Port" min={1} max={65535} fullWidth />
          <BooleanInput source="password_authentication" label="Password login" />
          <BooleanInput source="permit_root_login" label="Root login" />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton label="Save SSH settings" disabled={!online} />
          </Stack>
        </Form>
      ) : null}
    </SectionCard>
  );
}
