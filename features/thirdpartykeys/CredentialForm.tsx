import { Alert, Box, Button, Stack } from '@mui/material';
import { Form } from 'ra-core';
import { PasswordInput, SelectInput, TextInput } from 'ra-ui-materialui';
import { useMemo } from 'react';
import { type FieldValues, type Resolver, useWatch } from 'react-hook-form';
import {
  INTEGRATIONS,
  INTEGRATION_IDS,
  type IntegrationId,
  type IntegrationKind,
  thirdPartyKeyInput,
  thirdPartyKeyUpdate,
} from './integrations';
import { keepText } from '../../src/generic/SchemaInput';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

export interface CredentialValues {
  integration: IntegrationId;
  label: string;
  api_url?: string;
  key_id?: string;
  secret: string;
}

const FIELDS = ['integration', 'label', 'api_url', 'key_id', 'secret'] as const;

function Fields({
  fixed,
  kinds,
  replacing,
}: {
  fixed?: IntegrationId;
  kinds?: readonly IntegrationKind[];
  replacing: boolean;
}) {
  const chosen = (useWatch({ name: 'integration' }) as IntegrationId | undefined) ?? fixed;
  const info = chosen ? INTEGRATIONS[chosen] : undefined;
  const choices = INTEGRATION_IDS.filter(
    (id) => !kinds || kinds.includes(INTEGRATIONS[id].kind),
  ).map((id) => ({ id, name: INTEGRATIONS[id].name }));
  return (
    <Stack spacing={0.5}>
      {fixed ? null : (
        <SelectInput
          source="integration"
          label="Service"
          choices={choices}
          fullWidth
          autoFocus
          helperText={false}
        />
      )}
      {info ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {info.help}
          {info.checked ? ' It is checked with the provider before it is saved.' : ''}
        </Alert>
      ) : null}
      <TextInput
        source="label"
        label="Label"
        parse={keepText}
        fullWidth
        autoFocus={Boolean(fixed) && !replacing}
        helperText="How this account shows in the panel, e.g. Main DNS"
      />
      {info?.needsUrl ? (
        <TextInput
          source="api_url"
          label="API address"
          parse={keepText}
          fullWidth
          helperText={false}
        />
      ) : null}
      {info?.needsKeyId ? (
        <TextInput
          source="key_id"
          label="Access key id"
          parse={keepText}
          fullWidth
          helperText={false}
        />
      ) : null}
      <PasswordInput
        source="secret"
        label={info?.secretLabel ?? 'Credential'}
        parse={keepText}
        fullWidth
        autoFocus={replacing}
        autoComplete="off"
        helperText="Stored encrypted; afterwards only its last four characters are shown"
      />
    </Stack>
  );
}

/**
 * A credential form: a new one (service, label, address, key id, secret) or a replacement of a
 * stored one (`replacing`: a new secret, optionally label and address). Validated with the
 * declared schemas; the server's check with the provider answers in the notification.
 */
export function CredentialForm({
  fixed,
  kinds,
  replacing,
  defaults,
  submitLabel,
  save,
  onCancel,
}: {
  fixed?: IntegrationId;
  kinds?: readonly IntegrationKind[];
  replacing?: { label: string; api_url: string | null; key_id: string | null };
  defaults?: Partial<CredentialValues>;
  submitLabel: string;
  save: (values: CredentialValues) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const resolver = useMemo<Resolver<FieldValues>>(() => {
    const base = schemaResolver(
      replacing
        ? thirdPartyKeyUpdate
        : fixed
          ? thirdPartyKeyInput.omit({ integration: true })
          : thirdPartyKeyInput,
    );
    // An address or key id left empty is not given (not an empty address).
    return (values, context, options) =>
      base(
        Object.fromEntries(
          Object.entries(values).filter(
            ([k, v]) => !((k === 'api_url' || k === 'key_id') && v === ''),
          ),
        ),
        context,
        options,
      );
  }, [replacing, fixed]);
  const defaultValues = useMemo<FieldValues>(
    () =>
      replacing
        ? {
            label: replacing.label,
            api_url: replacing.api_url ?? '',
            key_id: replacing.key_id ?? '',
            secret: '',
          }
        : { label: '', api_url: '', key_id: '', secret: '', ...defaults },
    [replacing, defaults],
  );
  const onSubmit = useSubmitHandler<CredentialValues>(
    FIELDS,
    (values) => save(fixed ? { ...values, integration: fixed } : values),
    null,
  );
  return (
    <Form defaultValues={defaultValues} resolver={resolver} onSubmit={onSubmit} noValidate>
      <Box sx={{ maxWidth: 560 }}>
        <Fields fixed={fixed} kinds={kinds} replacing={Boolean(replacing)} />
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained">
            {submitLabel}
          </Button>
          {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        </Stack>
      </Box>
    </Form>
  );
}
