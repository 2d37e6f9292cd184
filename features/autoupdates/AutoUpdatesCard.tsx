import { Alert, LinearProgress, Stack, Typography } from '@mui/material';
import SystemUpdateAlt from '@mui/icons-material/SystemUpdateAlt';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { BooleanInput, SaveButton } from 'ra-ui-materialui';
import { SectionCard } from '../../src/generic/SectionCard';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { errorMessage } from '../../src/generic/serverErrors';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { originInWords } from './originWords';
import { type AutoUpdates, type AutoUpdatesState, autoUpdatesSchema } from './resource';

const resolver = schemaResolver(autoUpdatesSchema);
const FIELDS = ['security_update', 'software_update'];

/**
 * Automatic updates of a server (spec `thirdpartyupd`), read live from apt; a change is checked
 * by unattended-upgrade's own dry run before it is kept.
 */
export function AutoUpdatesCard({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const key = ['thirdpartyupd', sid];
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dp.action<AutoUpdatesState>('thirdpartyupd', 'read', { params: { sid }, signal }),
    enabled: online,
    retry: false,
  });
  const onSubmit = useSubmitHandler<AutoUpdates>(
    FIELDS,
    async (values) => {
      const next = await dp.action<AutoUpdatesState>('thirdpartyupd', 'change', {
        params: { sid },
        body: { security_update: values.security_update, software_update: values.software_update },
      });
      queryClient.setQueryData(key, next);
    },
    'Automatic updates saved and checked with a dry run.',
  );
  return (
    <SectionCard
      id="auto-updates"
      title="Automatic updates"
      subtitle="Installed nightly by unattended-upgrades; each change is checked with its dry run."
      icon={SystemUpdateAlt}
    >
      {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
      {online && isPending ? <LinearProgress aria-label="Reading automatic updates" /> : null}
      {!online ? <Alert severity="info">Read from the server when it is online.</Alert> : null}
      {data ? (
        <Form
          key={JSON.stringify(data)}
          defaultValues={{
            security_update: data.security_update,
            software_update: data.software_update,
          }}
          resolver={resolver}
          onSubmit={onSubmit}
          disabled={!online}
          noValidate
        >
          <BooleanInput
            source="security_update"
            label="Security updates"
            helperText="Debian-Security only"
          />
          <BooleanInput
            source="software_update"
            label="Software updates"
            helperText="Debian's point releases and the -updates suite as well"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {data.origins.length ? (
              <>
                Allowed now:{' '}
                {data.origins.map((origin, index) => (
                  // The words for people; apt's own pattern on hover for those who want it.
                  <span key={origin} title={origin}>
                    {index > 0 ? '; ' : ''}
                    {originInWords(origin)}
                  </span>
                ))}
              </>
            ) : (
              'No automatic updates are allowed now.'
            )}
          </Typography>
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton label="Save automatic updates" disabled={!online} />
          </Stack>
        </Form>
      ) : null}
    </SectionCard>
  );
}
