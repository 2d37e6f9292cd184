import { useState } from 'react';
import { Alert, Button, Card, CardContent, CardHeader, Stack, TextField } from '@mui/material';
import { useNotify } from 'ra-core';
import type { z } from 'zod';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { ccRecord } from './resource';
import { useFirewallQuery, useFirewallRefresh } from './useFirewall';

/** Countries to deny (ISO codes, comma-separated); says plainly when no ranges are loaded. */
export function CountriesCard({ sid }: { sid: number }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useFirewallRefresh(sid);
  const cc = useFirewallQuery<z.infer<typeof ccRecord>>(sid, 'csf', 'cc');
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    const countries = (text ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    try {
      await dp.action('csf', 'setCc', { params: { sid }, body: { countries } });
      setText(null);
      notify('Denied countries saved.', { type: 'success' });
      await refresh();
    } catch (e) {
      const errors = fieldErrorsOf(e);
      setError(Object.values(errors)[0] ?? errorMessage(e));
    }
  };
  const none = cc.isSuccess && cc.data.loaded.length === 0;
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader title="Country blocking" />
      <CardContent>
        {none ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            No country IP ranges are loaded: an admin loads them (a start_ip,end_ip,country_code
            CSV) before countries can be denied.
          </Alert>
        ) : null}
        <Stack
          component="form"
          direction="row"
          sx={{ gap: 1, flexWrap: 'wrap' }}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextField
            size="small"
            label="Denied countries"
            sx={{ minWidth: 320 }}
            value={text ?? cc.data?.countries.join(',') ?? ''}
            onChange={(e) => setText(e.target.value)}
            error={Boolean(error)}
            helperText={
              error ??
              `Two-letter codes, comma-separated${cc.data?.loaded.length ? ` (loaded: ${cc.data.loaded.map((l) => l.country).join(', ')})` : ''}`
            }
          />
          <Button type="submit" variant="outlined" disabled={text === null}>
            Save countries
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
