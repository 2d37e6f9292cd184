import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import RestoreOutlined from '@mui/icons-material/RestoreOutlined';
import { Form } from 'ra-core';
import { RadioButtonGroupInput, SaveButton, SelectInput, TextInput } from 'ra-ui-materialui';
import type { FieldValues } from 'react-hook-form';
import { useFormContext, useWatch } from 'react-hook-form';
import { formatDateTime } from '../../src/generic/format';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { useServerChoices, useSubjects } from './PolicyForm';
import { type BackupPolicy, type BackupRun, restoreInput } from './schemas';
import { type RestoreMode, restoreConsequence, typeWords } from './words';

const resolver = schemaResolver(restoreInput);
const FIELDS = ['mode', 'path', 'to_webapp_id', 'to_database_id'];

/**
 * The fields of the mode picked (into another: its server, then it; one path: the path) and
 * what the restore will do, said before the button that does it.
 */
function RestoreFields({ policy }: { policy: BackupPolicy }) {
  const mode = (useWatch({ name: 'mode' }) ?? 'replace') as RestoreMode;
  const path = useWatch({ name: 'path' }) as string | null;
  const field = policy.type === 'webapp' ? 'to_webapp_id' : 'to_database_id';
  const to = useWatch({ name: field }) as number | string | null;
  const servers = useServerChoices();
  const [sid, setSid] = useState<number | null>(policy.server_id);
  const subjects = useSubjects(policy.type, mode === 'new' ? sid : null);
  const { setValue } = useFormContext();
  // Not the policy's own subject: "replace" is that.
  const own = policy.type === 'webapp' ? policy.webapp_id : policy.database_id;
  const choices = subjects.choices.filter((c) => !(sid === policy.server_id && c.id === own));
  const toName = choices.find((c) => String(c.id) === String(to))?.name ?? null;
  return (
    <>
      {mode === 'new' ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <SelectInput
            size="medium"
            source="_server"
            label="Server"
            choices={servers}
            defaultValue={policy.server_id}
            onChange={(e) => {
              setSid(Number(e.target.value) || null);
              setValue(field, '');
            }}
            fullWidth
          />
          <SelectInput
            size="medium"
            source={field}
            label={policy.type === 'webapp' ? 'Into the web app' : 'Into the database'}
            choices={choices}
            isPending={subjects.isPending}
            fullWidth
          />
        </Stack>
      ) : null}
      {mode === 'path' ? (
        <TextInput
          size="medium"
          source="path"
          label="Path inside the app"
          helperText="e.g. wp-content/uploads or index.php"
          fullWidth
        />
      ) : null}
      <Alert severity="warning" data-testid="restore-consequence">
        {restoreConsequence(policy.type, policy.subject, mode, { name: toName, path })}
      </Alert>
    </>
  );
}

/**
 * Restoring a file: the whole app or database (restored beside it, checked, swapped in; the
 * previous kept), into another one, or one path of an app. The dialog says what gets replaced
 * before anything is.
 */
export function RestoreDialog({
  policy,
  file,
  onClose,
  onStarted,
}: {
  policy: BackupPolicy;
  file: BackupRun;
  onClose: () => void;
  onStarted: (taskId: number) => void;
}) {
  const dp = useStackdeckData();
  const words = typeWords(policy.type);
  const modes = useMemo(
    () => [
      { id: 'replace', name: `Replace ${policy.subject} with this backup` },
      { id: 'new', name: `Into another ${words.one}` },
      ...(policy.type === 'webapp' ? [{ id: 'path', name: 'One file or folder' }] : []),
    ],
    [policy, words.one],
  );
  const onSubmit = useSubmitHandler<Record<string, unknown>>(
    FIELDS,
    async (values) => {
      const answer = await dp.action<{ task_id: number }>('backups', 'restore', {
        body: values,
      });
      onStarted(answer.task_id);
      onClose();
    },
    'Restore started. Follow it here and in the messages.',
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="restore-title">
      <DialogTitle id="restore-title">
        Restore {policy.subject} from {formatDateTime(file.started_at ?? file.created_at)}
      </DialogTitle>
      <DialogContent>
        <Form
          defaultValues={{
            file_id: file.id,
            mode: 'replace',
            path: '',
            to_webapp_id: '',
            to_database_id: '',
          }}
          resolver={resolver}
          onSubmit={(values: FieldValues) => onSubmit(values)}
          noValidate
        >
          <Stack spacing={1}>
            <RadioButtonGroupInput
              source="mode"
              label="What to restore"
              choices={modes}
              row={false}
            />
            <RestoreFields policy={policy} />
            <Typography variant="caption" color="text.secondary">
              The restore runs on the server; you can follow it in the messages.
            </Typography>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={onClose} autoFocus>
                Cancel
              </Button>
              <SaveButton label="Restore" icon={<RestoreOutlined />} alwaysEnable color="warning" />
            </Stack>
          </Stack>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
