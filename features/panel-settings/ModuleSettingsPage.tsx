import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Grid,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import MailOutline from '@mui/icons-material/MailOutline';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { type FormEvent, useState } from 'react';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { CURRENCIES } from '../plans/api';
import { GATEWAYS, type PanelSettings, type PanelSettingsView, panelSettingsSchema } from './api';
import { MoneyField } from './MoneyField';

const KEY = ['panel-settings'];

/** What the form edits: lists as the text an admin types them in. */
interface Draft {
  settings: PanelSettings;
  address: string;
  dunning: string;
  rates: { country: string; percent: string }[];
  /** Null while the typed price is not an amount. */
  price: number | null;
}

const draftOf = (s: PanelSettings): Draft => ({
  settings: s,
  address: s.seller_address.join('\n'),
  dunning: s.dunning_days.join(', '),
  rates: s.tax_rates.map((r) => ({ country: r.country, percent: String(r.percent) })),
  price: s.backup_price_per_gb,
});

/** The settings the draft says (for the schema to judge). */
function valuesOf(d: Draft): Record<string, unknown> {
  return {
    ...d.settings,
    seller_address: d.address
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    seller_tax_number: d.settings.seller_tax_number?.trim() || null,
    seller_email: d.settings.seller_email?.trim() || null,
    dunning_days: d.dunning
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((v) => (/^\d+$/.test(v) ? Number(v) : NaN)),
    tax_rates: d.rates.map((r) => ({
      country: r.country,
      percent: r.percent.trim() === '' ? NaN : Number(r.percent.replace(',', '.')),
    })),
    backup_price_per_gb: d.price ?? NaN,
  };
}

const GATEWAY_LABELS: Record<string, string> = {
  manual: 'Bank transfer (manual)',
  stripe: 'Card (Stripe)',
  paypal: 'PayPal',
};

/** /admin/module-sittings (the spec's spelling): the panel's run-time settings. */
export default function ModuleSettingsPage() {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => dp.action<PanelSettingsView>('panel-settings', 'read'),
  });
  return (
    <Box>
      <PageHeader
        title="Module settings"
        description="Billing and invoices as the panel runs them: currency, the seller on invoices, tax rates, ways to pay, reminders. Each change is in your account activity. API keys of Stripe, PayPal and Vultr are under API."
      />
      {query.isPending ? <LinearProgress aria-label="Loading the settings" /> : null}
      {query.isError ? <Alert severity="error">{errorMessage(query.error)}</Alert> : null}
      {query.data ? (
        <SettingsForm
          key={query.data.updated_at ?? 'defaults'}
          view={query.data}
          onSave={async (values) => {
            const saved = await dp.action<PanelSettingsView>('panel-settings', 'change', {
              body: values,
            });
            queryClient.setQueryData(KEY, saved);
            notify('Settings saved.', { type: 'success' });
          }}
        />
      ) : null}
    </Box>
  );
}

function SettingsForm({
  view,
  onSave,
}: {
  view: PanelSettingsView;
  onSave: (values: PanelSettings) => Promise<void>;
}) {
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const s = draft.settings;
  const set = (patch: Partial<PanelSettings>) =>
    setDraft((d) => ({ ...d, settings: { ...d.settings, ...patch } }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setGeneral(null);
    const parsed = panelSettingsSchema.safeParse(valuesOf(draft));
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]).reverse()),
      );
      setGeneral('Some values need fixing (marked below).');
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await onSave(parsed.data);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setGeneral(Object.keys(fields).length ? 'Some values need fixing.' : errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  /** The first message at a field or inside it (a list's item). */
  const err = (path: string) =>
    errors[path] ??
    Object.entries(errors).find(([k]) => k.startsWith(`${path}.`))?.[1] ??
    undefined;

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={2} sx={{ maxWidth: 860 }}>
        {general ? <Alert severity="error">{general}</Alert> : null}
        <SectionCard
          id="settings-billing"
          title="Billing"
          subtitle="The currency prices and invoices are in, and the ways users may pay."
          icon={PaymentsOutlined}
        >
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField
                select
                id="settings-currency"
                label="Currency"
                value={s.currency}
                onChange={(e) => set({ currency: e.target.value as PanelSettings['currency'] })}
                error={Boolean(err('currency'))}
                helperText={err('currency') ?? 'Of new invoices'}
                fullWidth
              >
                {CURRENCIES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 8 }}>
              <FormControl error={Boolean(err('enabled_gateways'))} component="fieldset">
                <FormLabel component="legend">Ways to pay</FormLabel>
                <FormGroup row>
                  {GATEWAYS.map((g) => (
                    <FormControlLabel
                      key={g}
                      label={GATEWAY_LABELS[g]}
                      control={
                        <Checkbox
                          checked={s.enabled_gateways.includes(g)}
                          onChange={(e) =>
                            set({
                              enabled_gateways: e.target.checked
                                ? GATEWAYS.filter((x) => x === g || s.enabled_gateways.includes(x))
                                : s.enabled_gateways.filter((x) => x !== g),
                            })
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
                <FormHelperText>
                  {err('enabled_gateways') ??
                    'Card and PayPal also need their keys under API before users see them.'}
                </FormHelperText>
              </FormControl>
            </Grid>
            <Grid size={12}>
              <TextField
                id="settings-manual-instructions"
                label="Bank transfer instructions"
                value={s.manual_instructions}
                onChange={(e) => set({ manual_instructions: e.target.value })}
                error={Boolean(err('manual_instructions'))}
                helperText={
                  err('manual_instructions') ??
                  'Shown on invoices paid by bank transfer: account holder, IBAN, BIC, what to put as reference'
                }
                multiline
                minRows={3}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-dunning-days"
                label="Reminder days"
                value={draft.dunning}
                onChange={(e) => setDraft((d) => ({ ...d, dunning: e.target.value }))}
                error={Boolean(err('dunning_days'))}
                helperText={
                  err('dunning_days') ??
                  'Days after an unpaid renewal when the panel tries again and reminds (1, 3, 5, 7)'
                }
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-grace-days"
                label="Grace days"
                type="number"
                value={Number.isNaN(s.grace_days) ? '' : s.grace_days}
                onChange={(e) =>
                  set({ grace_days: e.target.value === '' ? NaN : Number(e.target.value) })
                }
                error={Boolean(err('grace_days'))}
                helperText={
                  err('grace_days') ?? 'Days a past-due subscription keeps working before it ends'
                }
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <MoneyField
                id="settings-backup-price"
                label="Backup storage, per GB-month"
                valueMinor={draft.price ?? 0}
                currency={s.currency}
                onChange={(price) => setDraft((d) => ({ ...d, price }))}
                error={err('backup_price_per_gb')}
                helperText="0: backup storage is not charged"
              />
            </Grid>
          </Grid>
        </SectionCard>

        <SectionCard
          id="settings-seller"
          title="Seller on invoices"
          subtitle="Who invoices are from."
          icon={StorefrontOutlined}
        >
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-seller-name"
                label="Name"
                value={s.seller_name}
                onChange={(e) => set({ seller_name: e.target.value })}
                error={Boolean(err('seller_name'))}
                helperText={err('seller_name') ?? 'The business, as registered'}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-seller-email"
                label="Billing email"
                type="email"
                value={s.seller_email ?? ''}
                onChange={(e) => set({ seller_email: e.target.value })}
                error={Boolean(err('seller_email'))}
                helperText={err('seller_email') ?? 'Optional'}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-seller-address"
                label="Address"
                value={draft.address}
                onChange={(e) => setDraft((d) => ({ ...d, address: e.target.value }))}
                error={Boolean(err('seller_address'))}
                helperText={err('seller_address') ?? 'One line each (up to 8)'}
                multiline
                minRows={3}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                id="settings-seller-tax-number"
                label="Tax number"
                value={s.seller_tax_number ?? ''}
                onChange={(e) => set({ seller_tax_number: e.target.value })}
                error={Boolean(err('seller_tax_number'))}
                helperText={err('seller_tax_number') ?? 'VAT or sales tax id; optional'}
                fullWidth
              />
            </Grid>
          </Grid>
        </SectionCard>

        <SectionCard
          id="settings-tax"
          title="Tax rates"
          subtitle="By the buyer's country (ISO code: DE, US); * for every country not listed. No rate: no tax."
          icon={ReceiptLongOutlined}
          aside={
            <Button
              startIcon={<Add />}
              onClick={() =>
                setDraft((d) => ({ ...d, rates: [...d.rates, { country: '', percent: '' }] }))
              }
            >
              Add rate
            </Button>
          }
        >
          {draft.rates.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No tax rates: invoices carry no tax.
            </Typography>
          ) : null}
          {errors.tax_rates ? <FormHelperText error>{errors.tax_rates}</FormHelperText> : null}
          <Stack spacing={1.5}>
            {draft.rates.map((rate, i) => (
              <Stack key={i} direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  id={`settings-tax-country-${i}`}
                  label="Country"
                  value={rate.country}
                  onChange={(e) =>
                    setDraft((d) => ({
                      ...d,
                      rates: d.rates.map((r, j) =>
                        j === i ? { ...r, country: e.target.value.toUpperCase() } : r,
                      ),
                    }))
                  }
                  error={Boolean(errors[`tax_rates.${i}.country`])}
                  helperText={errors[`tax_rates.${i}.country`]}
                  slotProps={{ htmlInput: { maxLength: 2 } }}
                  sx={{ width: 140 }}
                />
                <TextField
                  id={`settings-tax-percent-${i}`}
                  label="Percent"
                  value={rate.percent}
                  onChange={(e) =>
                    setDraft((d) => ({
                      ...d,
                      rates: d.rates.map((r, j) =>
                        j === i ? { ...r, percent: e.target.value } : r,
                      ),
                    }))
                  }
                  error={Boolean(errors[`tax_rates.${i}.percent`])}
                  helperText={errors[`tax_rates.${i}.percent`]}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  sx={{ width: 160 }}
                />
                <IconButton
                  aria-label={`Remove the rate of ${rate.country || 'this row'}`}
                  onClick={() =>
                    setDraft((d) => ({ ...d, rates: d.rates.filter((_, j) => j !== i) }))
                  }
                  sx={{ mt: 1 }}
                >
                  <DeleteOutline />
                </IconButton>
              </Stack>
            ))}
          </Stack>
        </SectionCard>

        <SectionCard
          id="settings-mail"
          title="Mail-out"
          subtitle="Set where the panel starts (SMTP_URL and MAIL_FROM in its environment), not here."
          icon={MailOutline}
        >
          <Typography variant="body2">
            Sending:{' '}
            <strong>
              {view.mail.smtp_configured ? 'through the SMTP server set' : 'not set up'}
            </strong>
          </Typography>
          <Typography variant="body2">
            From: <strong>{view.mail.from}</strong>
          </Typography>
        </SectionCard>

        <Stack
          direction="row"
          spacing={2}
          sx={{ justifyContent: 'flex-end', alignItems: 'center' }}
        >
          {view.updated_at ? (
            <Typography variant="body2" color="text.secondary">
              Last changed {new Date(view.updated_at).toLocaleString()} by {view.updated_by}
            </Typography>
          ) : null}
          <Button type="submit" variant="contained" disabled={saving}>
            Save settings
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
