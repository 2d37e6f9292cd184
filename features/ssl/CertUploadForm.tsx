import { useState } from 'react';
import { Alert, Button, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';

export interface UploadValues {
  certificate: string;
  private_key: string;
  chain: string | null;
  force_https?: boolean;
}

/**
 * The PEM texts of a certificate, its key and its chain, with the server's refusal at its
 * field (key does not match, expired, names missing, chain broken). The key field is never
 * filled from the server: it only goes there.
 */
export function CertUploadForm({
  submitLabel,
  withForce,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  withForce: boolean;
  onSubmit: (values: UploadValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [certificate, setCertificate] = useState('');
  const [key, setKey] = useState('');
  const [chain, setChain] = useState('');
  const [force, setForce] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setErrors({});
    setProblem(null);
    try {
      await onSubmit({
        certificate,
        private_key: key,
        chain: chain.trim() ? chain : null,
        ...(withForce ? { force_https: force } : {}),
      });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      const shown = ['certificate', 'private_key', 'chain'].some((f) => fields[f]);
      if (!shown) setProblem(errorMessage(error, 'The certificate could not be installed.'));
    } finally {
      setBusy(false);
    }
  };
  const pemField = (
    label: string,
    name: string,
    value: string,
    set: (v: string) => void,
    help: string,
  ) => (
    <TextField
      label={label}
      value={value}
      onChange={(e) => set(e.target.value)}
      multiline
      minRows={4}
      maxRows={12}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? help}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
    />
  );
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      {problem ? (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      ) : null}
      {pemField(
        'Certificate (PEM)',
        'certificate',
        certificate,
        setCertificate,
        'From -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----',
      )}
      {pemField(
        'Private key (PEM)',
        'private_key',
        key,
        setKey,
        'Unencrypted; it goes to the server only and is never shown again',
      )}
      {pemField(
        'Chain (PEM, optional)',
        'chain',
        chain,
        setChain,
        "The intermediate certificates, the certificate's issuer first",
      )}
      {withForce ? (
        <FormControlLabel
          control={<Switch checked={force} onChange={(_, on) => setForce(on)} />}
          label="Force HTTPS (plain HTTP redirects)"
        />
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          disabled={busy || !certificate.trim() || !key.trim()}
          onClick={() => void submit()}
        >
          {busy ? 'Installing…' : submitLabel}
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </Stack>
    </Stack>
  );
}
