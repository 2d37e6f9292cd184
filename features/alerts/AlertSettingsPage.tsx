import { Alert, Box, Grid, LinearProgress, Stack } from '@mui/material';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { SaveButton } from 'ra-ui-materialui';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { SchemaInput } from '../../src/generic/SchemaInput';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { formFields, inputSchemaOf } from '../../src/generic/formModel';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { type AlertSettings, type AlertSettingsInput, alertSettings } from './resource';

const schema = inputSchemaOf(alertSettings);
const resolver = schemaResolver(schema);
const FIELDS = formFields(alertSettings);
const NAMES = FIELDS.map((f) => f.name);

/** The settings' inputs in groups: a channel, then each kind with its thresholds beside it. */
const GROUPS: { id: string; title: string; subtitle: string; fields: string[] }[] = [
  {
    id: 'alert-channels',
    title: 'Channels',
    subtitle:
      'Where alerts go: your account’s address, and a Slack- or Discord-compatible webhook.',
    fields: ['mail', 'webhook_url'],
  },
  {
    id: 'alert-servers',
    title: 'Servers',
    subtitle:
      'A condition opens an alert once it has lasted its minutes; you hear once, and once more when it recovers.',
    fields: [
      'offline',
      'offline_minutes',
      'disk',
      'disk_percent',
      'disk_minutes',
      'memory',
      'memory_percent',
      'memory_minutes',
    ],
  },
  {
    id: 'alert-work',
    title: 'Sites and work',
    subtitle:
      'Certificates near their end (checked daily), and deploys, installs or jobs that failed.',
    fields: ['cert_expiry', 'task_failed', 'repeat_hours'],
  },
];

/** /alert-settings: thresholds, channels and quiet repeats (one form, Enter saves). */
export default function AlertSettingsPage() {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['alert-settings'],
    queryFn: () => dp.action<AlertSettings>('alert-settings', 'read'),
  });
  const onSubmit = useSubmitHandler<AlertSettingsInput>(
    NAMES,
    async (values) => {
      const saved = await dp.action<AlertSettings>('alert-settings', 'save', { body: values });
      queryClient.setQueryData(['alert-settings'], saved);
    },
    'Alert settings saved.',
  );
  const input = (name: string) => {
    const field = FIELDS.find((f) => f.name === name);
    return field ? (
      <SchemaInput key={name} field={field} resource={alertSettings.name} schema={schema} />
    ) : null;
  };
  return (
    <Box>
      <PageHeader
        title="Alert settings"
        description={
          <>
            When the panel tells you something needs you. What it told you is in the{' '}
            <Link to="/alerts">alert history</Link>.
          </>
        }
      />
      {query.isPending ? <LinearProgress aria-label="Loading the alert settings" /> : null}
      {query.isError ? <Alert severity="error">{errorMessage(query.error)}</Alert> : null}
      {query.data ? (
        <Form defaultValues={query.data} resolver={resolver} onSubmit={onSubmit} noValidate>
          <Stack spacing={2} sx={{ maxWidth: 760 }}>
            {GROUPS.map((group) => (
              <SectionCard
                key={group.id}
                id={group.id}
                title={group.title}
                subtitle={group.subtitle}
                icon={NotificationsActiveOutlined}
              >
                <Grid container spacing={2}>
                  {group.fields.map((name) => (
                    <Grid key={name} size={{ xs: 12, sm: name === 'webhook_url' ? 12 : 6 }}>
                      {input(name)}
                    </Grid>
                  ))}
                </Grid>
              </SectionCard>
            ))}
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              <SaveButton label="Save alert settings" />
            </Stack>
          </Stack>
        </Form>
      ) : null}
    </Box>
  );
}
