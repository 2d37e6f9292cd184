import { useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Add from '@mui/icons-material/Add';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Confirm, TextInput } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { User } from '../../resources/user-profile';
import type { ApiKeyRecord, apiKeyPair } from '../../resources/user-security';
import { CopyButton } from '../../src/generic/CopyButton';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { ActingNotice } from '../../src/pages/account/ActingNotice';
import { ReauthDialog } from '../../src/pages/account/ReauthDialog';

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

const when = (iso: string) => new Date(iso).toLocaleString();

interface Props {
  user: User;
  acting: boolean;
  /** Reloads the user record so the newest key shows everywhere. */
  refresh: () => unknown;
}

/**
 * API keys for scripts: minted with the password (and the second factor), the secret shown
 * once; each key listed with its last use and revocable on its own.
 */
export function ApiKeyCard({ user, acting, refresh }: Props) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [minting, setMinting] = useState(false);
  const [fresh, setFresh] = useState<KeyPair | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const queryKey = ['user-security', 'apiKeys', user.id];
  const keys = useQuery({
    queryKey,
    enabled: !acting,
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: ApiKeyRecord[]; total: number }>('user-security', 'apiKeys', {
        signal,
      }),
  });
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey });
    refresh();
  };

  const revoke = async (key: ApiKeyRecord) => {
    setBusy(true);
    try {
      await dataProvider.action('user-security', 'revokeApiKey', { params: { id: key.id } });
      notify('API key revoked', { type: 'success' });
      if (fresh?.id === key.id) setFresh(null);
      await reload();
    } catch (error) {
      notify(errorMessage(error, 'The key could not be revoked.'), { type: 'error' });
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  return (
    <SectionCard
      id="api-key"
      title="API keys"
      subtitle="Let scripts call the Stackdeck API as you: send a key and its secret in the X-Api-Key and X-Api-Secret headers."
      icon={KeyOutlined}
    >
      {acting ? <ActingNotice only="see or change the API keys" /> : null}
      <Stack spacing={2}>
        {fresh ? (
          <Alert severity="warning" onClose={() => setFresh(null)}>
            <AlertTitle>Copy the secret now</AlertTitle>
            It will not be shown again. If you lose it, revoke the key and make a new one.
            <Stack spacing={1} sx={{ mt: 1.5 }}>
              <Secret label="API key" value={fresh.api_key} testId="new-api-key" />
              <Secret label="API secret" value={fresh.api_secret} testId="api-secret" />
            </Stack>
          </Alert>
        ) : null}
        {acting ? null : (
          <QueryTable
            query={{ ...keys, data: keys.data?.data }}
            failed="Your keys could not be loaded."
            empty="No API keys yet. Make one for each script or service, so you can revoke it alone."
            emptyTestId="api-keys-empty"
            label="API keys"
            columns={['Key', 'Created', 'Last used', '']}
          >
            {(list) => (
              <>
                {list.map((key) => (
                  <TableRow key={key.id} data-testid="api-key-row">
                    <TableCell>
                      {key.label ? <Typography variant="body2">{key.label}</Typography> : null}
                      <Typography
                        variant="body2"
                        color="text.secondary"
                        sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                      >
                        {key.api_key}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(key.created_at)}</TableCell>
                    <TableCell>
                      {key.last_used_at ? (
                        <>
                          {when(key.last_used_at)}
                          <Typography variant="body2" color="text.secondary">
                            from {key.last_used_ip}
                          </Typography>
                        </>
                      ) : (
                        <Typography variant="body2" color="text.secondary">
                          Never
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        color="error"
                        size="small"
                        onClick={() => setRevoking(key)}
                        disabled={busy}
                      >
                        Revoke
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </>
            )}
          </QueryTable>
        )}
        <Typography variant="body2" color="text.secondary">
          Changing or resetting your password revokes every API key.
        </Typography>
        <div>
          <Button
            variant="outlined"
            startIcon={<Add />}
            disabled={acting}
            onClick={() => setMinting(true)}
          >
            New API key
          </Button>
        </div>
      </Stack>
      <ReauthDialog
        open={minting}
        user={user}
        title="New API key"
        text="Confirm it is you: a key gives a script your access until you revoke it."
        submitLabel="Create key"
        success="API key created"
        onClose={() => setMinting(false)}
        onConfirm={async (values) => {
          const pair = await dataProvider.action<KeyPair>('user-security', 'generateApiKey', {
            body: values,
          });
          setFresh(pair);
          setMinting(false);
          await reload();
        }}
      >
        <TextInput
          source="label"
          label="What is it for? (optional)"
          helperText="e.g. deploy script"
          fullWidth
        />
      </ReauthDialog>
      <Confirm
        isOpen={revoking !== null}
        loading={busy}
        title="Revoke this API key?"
        content={`${revoking?.label || revoking?.api_key || ''} stops working at once. Scripts that use it will fail.`}
        confirm="Revoke"
        confirmColor="warning"
        onConfirm={() => revoking && void revoke(revoking)}
        onClose={() => setRevoking(null)}
      />
    </SectionCard>
  );
}
