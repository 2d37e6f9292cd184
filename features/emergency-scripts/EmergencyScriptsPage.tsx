import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useGetList } from 'ra-core';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { EmergencyRun, EmergencyScript } from './resource';
import { ScriptOutput } from './ScriptOutput';
import { ServerChooser } from './ServerChooser';
import type { ScriptParams } from './scripts';

type Values = Record<string, number | boolean>;

/** A script's parameters, each from its fixed choices. */
function ParamFields({
  script,
  values,
  onChange,
}: {
  script: EmergencyScript;
  values: Values;
  onChange: (values: Values) => void;
}) {
  return (
    <Stack spacing={2} sx={{ my: 2 }}>
      {script.params.map((p) =>
        p.kind === 'boolean' ? (
          <FormControlLabel
            key={p.name}
            control={
              <Checkbox
                checked={Boolean(values[p.name] ?? p.default)}
                onChange={(e) => onChange({ ...values, [p.name]: e.target.checked })}
              />
            }
            label={`${p.label}: ${p.help}`}
          />
        ) : (
          <FormControl key={p.name} size="small" sx={{ maxWidth: 420 }}>
            <InputLabel id={`param-${p.name}`}>{p.label}</InputLabel>
            <Select
              labelId={`param-${p.name}`}
              label={p.label}
              value={Number(values[p.name] ?? p.default)}
              onChange={(e) => onChange({ ...values, [p.name]: Number(e.target.value) })}
            >
              {p.choices.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        ),
      )}
    </Stack>
  );
}

/**
 * /admin/911: an admin picks an emergency script and servers of any user, asks for a one-time
 * code by mail, and runs the script with it; each server's output streams below.
 */
export default function EmergencyScriptsPage() {
  const dp = useStackdeckData();
  const { data: scripts } = useGetList<EmergencyScript>('emergency-scripts', {
    pagination: { page: 1, perPage: 50 },
  });
  const [scriptId, setScriptId] = useState<EmergencyScript['id'] | ''>('');
  const [values, setValues] = useState<Values>({});
  const [servers, setServers] = useState(new Map<number, string>());
  const [codeSent, setCodeSent] = useState(false);
  const [otp, setOtp] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<EmergencyRun | null>(null);
  const script = scripts?.find((s) => s.id === scriptId);

  const sendCode = async () => {
    setError(null);
    try {
      await dp.action('users', 'sendOtp');
      setCodeSent(true);
    } catch (e) {
      setError(errorMessage(e, 'The code could not be sent.'));
    }
  };

  const start = async () => {
    if (!script) return;
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const params: Values = {};
      for (const p of script.params) params[p.name] = values[p.name] ?? p.default;
      const answer = await dp.action<EmergencyRun>('emergency-scripts', 'run', {
        query: { otp },
        body: { script: script.id, servers: [...servers.keys()], params: params as ScriptParams },
      });
      setRun(answer);
      setOtp('');
      setCodeSent(false);
    } catch (e) {
      setErrors(fieldErrorsOf(e));
      setError(errorMessage(e, 'The script could not be started.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title="911: emergency scripts"
        description="Fixed procedures for servers in trouble, run through their agent. Each run needs a fresh code mailed to you."
      />
      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
            1. Script
          </Typography>
          <FormControl size="small" sx={{ minWidth: 320 }}>
            <InputLabel id="script-label">Script</InputLabel>
            <Select
              labelId="script-label"
              label="Script"
              value={scriptId}
              onChange={(e) => {
                setScriptId(e.target.value as EmergencyScript['id']);
                setValues({});
              }}
            >
              {(scripts ?? []).map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          {script && (
            <Box sx={{ mt: 2 }}>
              <Typography variant="body2">{script.description}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                Impact: {script.impact}
              </Typography>
              <ParamFields script={script} values={values} onChange={setValues} />
            </Box>
          )}

          <Typography variant="subtitle1" component="h2" sx={{ mt: 3, mb: 1 }}>
            2. Servers
          </Typography>
          <ServerChooser chosen={servers} onChange={setServers} />
          {errors.servers && <Alert severity="error">{errors.servers}</Alert>}

          <Typography variant="subtitle1" component="h2" sx={{ mt: 3, mb: 1 }}>
            3. Confirm with a one-time code
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
            <Button variant="outlined" onClick={sendCode}>
              {codeSent ? 'Send another code' : 'Mail me a code'}
            </Button>
            <TextField
              size="small"
              label="Code"
              value={otp}
              onChange={(e) => setOtp(e.target.value.trim())}
              error={Boolean(errors.otp)}
              helperText={errors.otp ?? (codeSent ? 'Sent: check your mail' : ' ')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
            />
            <Button
              variant="contained"
              color="error"
              disabled={!script || servers.size === 0 || !/^\d{6}$/.test(otp) || busy}
              onClick={start}
            >
              Run on {servers.size} {servers.size === 1 ? 'server' : 'servers'}
            </Button>
          </Stack>
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </CardContent>
      </Card>

      {run && (
        <Card>
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ mb: 2 }}>
              Output of run #{run.id}: {scripts?.find((s) => s.id === run.script)?.name}
            </Typography>
            {run.servers.map((t) => (
              <ScriptOutput key={t.task_id} taskId={t.task_id} serverName={t.server_name} />
            ))}
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
