import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import {
  type ApiCredential,
  PROVIDERS,
  PROVIDER_FIELDS,
  type Provider,
  apiCredentialInput,
} from './api';
import { settingsPaths } from './links';

const PROVIDER_NAMES: Record<Provider, string> = {
  stripe: 'Stripe (cards)',
  paypal: 'PayPal',
  vultr: 'Vultr (servers)',
};

/** /admin/add-api (`?replace=<id>`: a credential's fields again): a key, shown back once. */
export default function AddApiCredentialPage() {
  const [params] = useSearchParams();
  const replaceId = params.get('replace');
  const dp = useStackdeckData();
  const existing = useQuery({
    queryKey: ['api-credentials', 'replace', replaceId],
    enabled: replaceId !== null,
    queryFn: async () => {
      const { data } = await dp.getList<ApiCredential & { id: number }>('api-credentials', {
        pagination: { page: 1, perPage: 100 },
        sort: { field: 'created_at', order: 'DESC' },
        filter: {},
      });
      return data.find((c) => String(c.id) === replaceId) ?? null;
    },
  });
  const title = replaceId ? 'Replace an API credential' : 'Add an API credential';
  return (
    <Box>
      <PageHeader
        title={title}
        description="Secrets are stored encrypted: after saving, the panel shows only their last 4 characters."
      />
      {replaceId && existing.isPending ? (
        <LinearProgress aria-label="Loading the credential" />
      ) : null}
      {replaceId && existing.isError ? (
        <Alert severity="error">{errorMessage(existing.error)}</Alert>
      ) : null}
      {replaceId && existing.data === null ? (
        <Alert severity="warning">
          No such API credential. <Link to={settingsPaths.credentials}>Back to API</Link>
        </Alert>
      ) : null}
      {!replaceId || existing.data ? (
        <CredentialForm key={replaceId ?? 'new'} existing={existing.data ?? null} />
      ) : null}
    </Box>
  );
}

function CredentialForm({ existing }: { existing: ApiCredential | null }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const [provider, setProvider] = useState<Provider>(existing?.provider ?? 'stripe');
  const [name, setName] = useState(existing?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>(() => ({
    ...(existing?.public_fields ?? {}),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<ApiCredential | null>(null);
  const fields = PROVIDER_FIELDS[provider];
  const paypalBase = values.apiBase ?? '';
  const paypalChoice =
    paypalBase === 'live' || paypalBase === 'sandbox' || paypalBase === '' ? paypalBase : 'custom';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setGeneral(null);
    const body: Record<string, string> = { provider, name };
    // An optional field left empty is left out (Stripe's and Vultr's default API address).
    for (const f of fields) {
      const value = values[f.name] ?? '';
      if (value !== '' || !f.optional) body[f.name] = value;
    }
    const parsed = apiCredentialInput.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]).reverse()),
      );
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = existing
        ? await dp.action<ApiCredential>('api-credentials', 'replace', {
            params: { id: existing.id },
            body: parsed.data,
          })
        : await dp.action<ApiCredential>('api-credentials', 'add', { body: parsed.data });
      // The typed secrets leave this page's memory: the confirmation shows what the panel kept.
      setValues({});
      setSaved(answer);
      notify(existing ? 'API credential replaced.' : 'API credential added.', { type: 'success' });
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error);
      setErrors(fieldErrors);
      setGeneral(Object.keys(fieldErrors).length ? null : errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  if (saved)
    return (
      <SectionCard id="api-saved" title="Saved" icon={KeyOutlined}>
        <Stack spacing={1.5}>
          <Alert severity="success">
            {PROVIDER_NAMES[saved.provider]} credential “{saved.name}” is stored. This is the only
            time this page shows what was saved: the secrets are encrypted and the panel never shows
            them again, only their last 4 characters.
          </Alert>
          <Typography variant="body2">
            Key: <strong style={{ fontFamily: 'monospace' }}>••••{saved.key_last4}</strong>
          </Typography>
          {Object.entries(saved.public_fields).map(([field, value]) => (
            <Typography key={field} variant="body2">
              {PROVIDER_FIELDS[saved.provider].find((f) => f.name === field)?.label ?? field}:{' '}
              <strong style={{ fontFamily: 'monospace' }}>{value}</strong>
            </Typography>
          ))}
          <Box>
            <Button component={Link} to={settingsPaths.credentials} variant="contained">
              Back to API
            </Button>
          </Box>
        </Stack>
      </SectionCard>
    );

  return (
    <Box component="form" onSubmit={submit} noValidate autoComplete="off" sx={{ maxWidth: 720 }}>
      <Stack spacing={2}>
        {general ? <Alert severity="error">{general}</Alert> : null}
        <FormControl
          component="fieldset"
          disabled={existing !== null}
          error={Boolean(errors.provider)}
        >
          <FormLabel component="legend">Provider</FormLabel>
          <RadioGroup
            row
            value={provider}
            onChange={(e) => {
              setProvider(e.target.value as Provider);
              setValues({});
              setErrors({});
            }}
          >
            {PROVIDERS.map((p) => (
              <FormControlLabel key={p} value={p} control={<Radio />} label={PROVIDER_NAMES[p]} />
            ))}
          </RadioGroup>
          {errors.provider ? (
            <Typography variant="caption" color="error">
              {errors.provider}
            </Typography>
          ) : null}
        </FormControl>
        <TextField
          id="api-name"
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name ?? 'How the list names it (Stripe live, PayPal sandbox)'}
          required
          fullWidth
        />
        {fields.map((field) =>
          provider === 'paypal' && field.name === 'apiBase' ? (
            <Stack key={field.name} spacing={1}>
              <TextField
                select
                id="api-paypal-environment"
                label="Environment"
                value={paypalChoice}
                onChange={(e) =>
                  setValues((v) => ({
                    ...v,
                    apiBase: e.target.value === 'custom' ? 'https://' : e.target.value,
                  }))
                }
                error={Boolean(errors.apiBase) && paypalChoice !== 'custom'}
                helperText={paypalChoice !== 'custom' ? errors.apiBase : undefined}
                required
                fullWidth
              >
                <MenuItem value="live">Live (api-m.paypal.com)</MenuItem>
                <MenuItem value="sandbox">Sandbox (api-m.sandbox.paypal.com)</MenuItem>
                <MenuItem value="custom">Another address</MenuItem>
              </TextField>
              {paypalChoice === 'custom' ? (
                <TextField
                  id="api-paypal-address"
                  label="API address"
                  value={paypalBase}
                  onChange={(e) => setValues((v) => ({ ...v, apiBase: e.target.value }))}
                  error={Boolean(errors.apiBase)}
                  helperText={errors.apiBase ?? 'An https address'}
                  fullWidth
                />
              ) : null}
            </Stack>
          ) : (
            <TextField
              key={`${provider}-${field.name}`}
              id={`api-${field.name}`}
              label={field.label}
              type={field.secret ? 'password' : 'text'}
              value={values[field.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [field.name]: e.target.value }))}
              error={Boolean(errors[field.name])}
              helperText={
                errors[field.name] ??
                (field.secret && existing
                  ? `${field.help}. Type it again: replacing sends every field`
                  : field.help)
              }
              required={!field.optional}
              slotProps={{ htmlInput: { autoComplete: field.secret ? 'new-password' : 'off' } }}
              fullWidth
            />
          ),
        )}
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button component={Link} to={settingsPaths.credentials}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {existing ? 'Replace credential' : 'Add credential'}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
