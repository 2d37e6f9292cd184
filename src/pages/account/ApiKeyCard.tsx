import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Autorenew from '@mui/icons-material/Autorenew';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { User, apiKeyPair } from '../../../resources/users';
import { CopyButton } from '../../generic/CopyButton';
import { SectionCard } from '../../generic/SectionCard';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { ActingNotice } from './ActingNotice';

type KeyPair = z.infer<typeof apiKeyPair>;

function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Typography
          data-testid={testId}
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', fontSize: 14 }}
        >
          {value}
        </Typography>
        <CopyButton value={value} label={`Copy the ${label.toLowerCase()}`} />
      </Stack>
    </Box>
  );
}

interface Props {
  user: User;
  acting: boolean;
  /** Reloads the user record so the new key shows everywhere. */
  refresh: () => unknown;
}

/** API key and secret for scripts: the key is shown, the secret only once when generated. */
export function ApiKeyCard({ user, acting, refresh }: Props) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<KeyPair | null>(null);

  const regenerate = async () => {
    setBusy(true);
    try {
      setFresh(await dataProvider.action<KeyPair>('users', 'generateApiKey'));
      refresh();
    } catch (error) {
      notify(errorMessage(error, 'A new key could not be generated.'), { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <SectionCard
      id="api-key"
      title="API key"
      subtitle="Lets scripts call the Stackdeck API as you: send the key and secret in the X-Api-Key and X-Api-Secret headers."
      icon={KeyOutlined}
    >
      {acting ? <ActingNotice only="change the API key" /> : null}
      <Stack spacing={2}>
        {fresh ? (
          <Alert severity="warning" onClose={() => setFresh(null)}>
            <AlertTitle>Copy the secret now</AlertTitle>
            It will not be shown again. If you lose it, generate a new key.
            <Box sx={{ mt: 1.5 }}>
              <Secret label="API secret" value={fresh.api_secret} testId="api-secret" />
            </Box>
          </Alert>
        ) : null}
        {user.api_key ? (
          <Secret label="API key" value={fresh?.api_key ?? user.api_key} testId="api-key" />
        ) : (
          <Typography variant="body2" color="text.secondary">
            No key yet.
          </Typography>
        )}
        <div>
          <Button
            variant="outlined"
            startIcon={<Autorenew />}
            disabled={acting || busy}
            onClick={() => setConfirming(true)}
          >
            {user.api_key ? 'Regenerate' : 'Generate'}
          </Button>
        </div>
      </Stack>
      <Confirm
        isOpen={confirming}
        loading={busy}
        title="Regenerate the API key?"
        content="The current key and secret stop working at once. Scripts that use them will fail until you give them the new ones."
        confirm="Regenerate"
        confirmColor="warning"
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
      />
    </SectionCard>
  );
}
