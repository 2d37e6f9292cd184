import { useMemo, useState } from 'react';
import {
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { Form } from 'ra-core';
import { PasswordInput, SaveButton, TextInput } from 'ra-ui-materialui';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { CopyButton } from '../../src/generic/CopyButton';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { backupTargetInput, type backupStorageSchema } from './schemas';
import { useBackupsRefresh } from './TaskProgress';
import { keyscanCommand } from './words';

type Kind = 's3' | 'sftp';
type Storage = z.infer<typeof backupStorageSchema>;

// The contract's two kinds of storage, each its own form (the union is split by `kind`).
const [s3Input, sftpInput] = backupTargetInput.options;
const FIELDS: Record<Kind, string[]> = {
  s3: ['name', 'endpoint', 'bucket', 'region', 'access_key_id', 'secret_access_key', 'ca_pem'],
  sftp: ['name', 'host', 'user', 'path', 'known_host'],
};

/** The storage's host keys: what ssh-keyscan prints for the host as typed above. */
function KnownHostInput() {
  const host = useWatch<Record<string, unknown>>({ name: 'host' });
  const command = keyscanCommand(typeof host === 'string' ? host : '');
  return (
    <TextInput
      size="medium"
      source="known_host"
      label="Host keys"
      helperText={`Paste what \`${command}\` prints (run it where you trust the network): the keys are pinned, never trusted on first use`}
      multiline
      minRows={3}
      fullWidth
      sx={{ '& textarea': { fontFamily: 'monospace', fontSize: 12 } }}
    />
  );
}

/**
 * Adding an S3 or SFTP storage: the panel checks it can reach it before keeping it; keys are
 * sealed and never shown again (the list shows a hint only).
 */
export function StorageDialog({
  onClose,
  sftpPublicKey,
}: {
  onClose: () => void;
  sftpPublicKey: string | null;
}) {
  const dp = useStackdeckData();
  const refresh = useBackupsRefresh();
  const [kind, setKind] = useState<Kind>('s3');
  const resolver = useMemo(() => schemaResolver(kind === 's3' ? s3Input : sftpInput), [kind]);
  const onSubmit = useSubmitHandler<Record<string, unknown>>(
    FIELDS[kind],
    async (values) => {
      await dp.action<Storage>('backup-targets', 'setStorage', { body: { ...values, kind } });
      await refresh();
      onClose();
    },
    'Storage added: it answered and is ready for backups.',
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="storage-title">
      <DialogTitle id="storage-title">Add storage</DialogTitle>
      <DialogContent>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={kind}
          onChange={(_, next: Kind | null) => next && setKind(next)}
          aria-label="Kind of storage"
          sx={{ mb: 2 }}
        >
          <ToggleButton value="s3">S3</ToggleButton>
          <ToggleButton value="sftp">SFTP</ToggleButton>
        </ToggleButtonGroup>
        <Form
          key={kind}
          defaultValues={
            kind === 's3'
              ? {
                  kind,
                  name: '',
                  endpoint: '',
                  bucket: '',
                  region: '',
                  access_key_id: '',
                  secret_access_key: '',
                  ca_pem: '',
                }
              : { kind, name: '', host: '', user: '', path: '', known_host: '' }
          }
          resolver={resolver}
          onSubmit={onSubmit}
          noValidate
        >
          <Stack spacing={0.5}>
            <TextInput size="medium" source="name" label="Name" fullWidth autoFocus />
            {kind === 's3' ? (
              <>
                <TextInput
                  size="medium"
                  source="endpoint"
                  label="Endpoint"
                  helperText="Host name, with :port if not 443, e.g. s3.eu-central-1.amazonaws.com"
                  fullWidth
                />
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextInput
                    size="medium"
                    source="bucket"
                    label="Bucket"
                    helperText="Then an optional /prefix"
                    fullWidth
                  />
                  <TextInput size="medium" source="region" label="Region (optional)" fullWidth />
                </Stack>
                <TextInput
                  size="medium"
                  source="access_key_id"
                  label="Access key ID"
                  autoComplete="off"
                  fullWidth
                />
                <PasswordInput
                  size="medium"
                  source="secret_access_key"
                  label="Secret access key"
                  helperText="Kept sealed; never shown again"
                  autoComplete="new-password"
                  fullWidth
                />
                <TextInput
                  size="medium"
                  source="ca_pem"
                  label="CA certificate (PEM, optional)"
                  helperText="Only for an endpoint with its own certificate authority"
                  multiline
                  minRows={2}
                  fullWidth
                />
              </>
            ) : (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextInput
                    size="medium"
                    source="host"
                    label="Host"
                    helperText="With :port if not 22"
                    fullWidth
                  />
                  <TextInput size="medium" source="user" label="User" fullWidth />
                </Stack>
                <TextInput
                  size="medium"
                  source="path"
                  label="Folder"
                  helperText="An absolute path, e.g. /srv/backups"
                  fullWidth
                />
                {sftpPublicKey ? (
                  <Stack spacing={0.5} sx={{ py: 1 }}>
                    <Typography variant="body2">
                      Add this public key to the storage user&apos;s ~/.ssh/authorized_keys. It is
                      your account&apos;s key for SFTP storage: the panel holds its private half and
                      hands it to your servers for each backup.
                    </Typography>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <TextField
                        value={sftpPublicKey}
                        label="Public key"
                        size="small"
                        fullWidth
                        multiline
                        slotProps={{
                          input: { readOnly: true, sx: { fontFamily: 'monospace', fontSize: 12 } },
                        }}
                      />
                      <CopyButton value={sftpPublicKey} label="Copy the public key" />
                    </Stack>
                  </Stack>
                ) : null}
                <KnownHostInput />
              </>
            )}
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', pt: 1 }}>
              <Button onClick={onClose}>Cancel</Button>
              <SaveButton label="Check and add" icon={<SaveOutlined />} alwaysEnable />
            </Stack>
          </Stack>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
