import { useMemo } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { useQuery } from '@tanstack/react-query';
import { Form, useCreate, useGetList, useUpdate } from 'ra-core';
import { BooleanInput, NumberInput, SaveButton, SelectInput, TextInput } from 'ra-ui-materialui';
import type { FieldValues, Resolver } from 'react-hook-form';
import { useFormContext, useWatch } from 'react-hook-form';
import type { Server } from '../../resources/servers';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import {
  BACKUP_FREQUENCIES,
  type BackupPolicy,
  type BackupType,
  DEFAULT_EXCLUDES,
  backupPolicyChange,
  backupPolicyInput,
  type backupStorageSchema,
} from './schemas';
import { useBackupsRefresh } from './TaskProgress';
import { WEEKDAYS, excludesToText, scheduleFields, textToExcludes, typeWords } from './words';
import type { z } from 'zod';

type Storage = z.infer<typeof backupStorageSchema>;

const FREQUENCY_CHOICES = BACKUP_FREQUENCIES.map((f) => ({
  id: f,
  name: { hourly: 'Every hour', daily: 'Every day', weekly: 'Every week', monthly: 'Every month' }[
    f
  ],
}));
const WEEKDAY_CHOICES = WEEKDAYS.map((name, id) => ({ id, name }));
const DAY_CHOICES = Array.from({ length: 28 }, (_, i) => ({ id: i + 1, name: String(i + 1) }));

/** The fields a 400 may name, as the form shows them (excludes are edited as lines of text). */
const FIELDS = [
  'server_id',
  'webapp_id',
  'database_id',
  'target_id',
  'frequency',
  'at',
  'weekday',
  'day',
  'keep_last',
  'keep_daily',
  'keep_weekly',
  'keep_monthly',
  'excludes',
  'upload_limit_kib',
  'gentle',
];

/** The schema's resolver, with the excludes typed one a line turned into the list it checks. */
function policyResolver(schema: typeof backupPolicyInput | typeof backupPolicyChange): Resolver {
  const base = schemaResolver(schema);
  return async (values, context, options) => {
    const { excludes_text: text, ...rest } = values as FieldValues;
    const withList =
      typeof text === 'string'
        ? { ...rest, excludes: textToExcludes(text) }
        : (rest as FieldValues);
    const result = await base(withList, context, options);
    const errors = { ...result.errors } as Record<string, unknown>;
    if (errors.excludes) {
      errors.excludes_text = errors.excludes;
      delete errors.excludes;
    }
    return { ...result, errors } as typeof result;
  };
}

/** The storages of the account, for the pickers (the panel's own is "none"). */
export function useStorage() {
  const dp = useStackdeckData();
  return useQuery({
    queryKey: ['backup-storage'],
    queryFn: () => dp.action<Storage>('backup-targets', 'storage'),
  });
}

/** A server's apps or databases, once a server is picked. */
export function useSubjects(type: BackupType, sid: number | null) {
  const { data, isPending } = useGetList(
    type === 'webapp' ? 'webstacks' : 'databases',
    { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' }, meta: { sid } },
    { enabled: Boolean(sid) },
  );
  return {
    choices: (data ?? []).map((row) => ({ id: row.id, name: String(row.name) })),
    isPending: Boolean(sid) && isPending,
  };
}

export function useServerChoices() {
  const { data } = useGetList<Server>('servers', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  return useMemo(
    () => (data ?? []).map((s) => ({ id: s.id, name: s.pending_name ?? s.name })),
    [data],
  );
}

/** Server, then one of its apps or databases (a new policy only: they never change). */
function SubjectInputs({ type }: { type: BackupType }) {
  const servers = useServerChoices();
  const { setValue } = useFormContext();
  const sid = useWatch({ name: 'server_id' }) as number | string | null;
  const subjects = useSubjects(type, sid ? Number(sid) : null);
  const words = typeWords(type);
  const field = type === 'webapp' ? 'webapp_id' : 'database_id';
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <SelectInput
        size="medium"
        source="server_id"
        label="Server"
        choices={servers}
        fullWidth
        autoFocus
        onChange={() => setValue(field, '')}
      />
      <SelectInput
        size="medium"
        source={field}
        label={type === 'webapp' ? 'Web app' : 'Database'}
        choices={subjects.choices}
        disabled={!sid}
        isPending={subjects.isPending}
        helperText={
          sid && !subjects.isPending && subjects.choices.length === 0
            ? `This server has no ${words.many}`
            : undefined
        }
        fullWidth
      />
    </Stack>
  );
}

function ScheduleInputs() {
  const frequency = (useWatch({ name: 'frequency' }) ??
    'daily') as (typeof BACKUP_FREQUENCIES)[number];
  const shown = scheduleFields(frequency);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <SelectInput
        size="medium"
        source="frequency"
        label="How often"
        choices={FREQUENCY_CHOICES}
        fullWidth
      />
      {shown.weekday ? (
        <SelectInput
          size="medium"
          source="weekday"
          label="On"
          choices={WEEKDAY_CHOICES}
          fullWidth
        />
      ) : null}
      {shown.day ? (
        <SelectInput
          size="medium"
          source="day"
          label="Day of the month"
          choices={DAY_CHOICES}
          fullWidth
        />
      ) : null}
      <TextInput
        size="medium"
        source="at"
        label={frequency === 'hourly' ? 'At minute (HH:MM, the minutes count)' : 'At (HH:MM)'}
        fullWidth
      />
    </Stack>
  );
}

/**
 * A policy's form, new or changed, in a dialog: what (new only), where, when, how long kept,
 * what left out (apps), how fast. The rules are the contract's (schemas.ts); a 400 from the
 * server is said at its field.
 */
export function PolicyDialog({
  type,
  policy,
  open,
  onClose,
}: {
  type: BackupType;
  /** The policy to change; none: a new one. */
  policy?: BackupPolicy | null;
  open: boolean;
  onClose: () => void;
}) {
  const [create] = useCreate();
  const [update] = useUpdate();
  const refresh = useBackupsRefresh();
  const storage = useStorage();
  const targets = (storage.data?.targets ?? [])
    .filter((t) => t.kind !== 'panel')
    .map((t) => ({ id: t.id, name: `${t.name} (${t.kind.toUpperCase()})` }));
  const words = typeWords(type);
  const editing = Boolean(policy);
  const resolver = useMemo(
    () => policyResolver(editing ? backupPolicyChange : backupPolicyInput),
    [editing],
  );
  const defaults = policy
    ? {
        ...policy,
        excludes_text: excludesToText(policy.excludes),
        target_id: policy.target_id ?? '',
      }
    : {
        type,
        server_id: '',
        webapp_id: '',
        database_id: '',
        target_id: '',
        frequency: 'daily',
        at: '03:00',
        weekday: 0,
        day: 1,
        keep_last: 7,
        keep_daily: 7,
        keep_weekly: 4,
        keep_monthly: 6,
        excludes_text: excludesToText(DEFAULT_EXCLUDES),
        upload_limit_kib: null,
        gentle: true,
      };
  const submit = useSubmitHandler<Record<string, unknown>>(
    FIELDS,
    async (values) => {
      if (policy) {
        const { excludes: _ignored, ...rest } = values;
        const data = type === 'webapp' ? values : rest;
        await update(
          'backups',
          { id: policy.id, data, previousData: policy as never },
          { mutationMode: 'pessimistic', returnPromise: true },
        );
      } else {
        const data = type === 'webapp' ? values : { ...values, excludes: [] };
        await create('backups', { data: { ...data, type } }, { returnPromise: true });
      }
      await refresh();
      onClose();
    },
    policy ? 'Backup changed.' : 'Backup created. It runs on its schedule; you may back up now.',
  );
  const onSubmit = async (values: FieldValues) => {
    const errors = await submit(values);
    if (errors?.excludes) {
      errors.excludes_text = errors.excludes;
      delete errors.excludes;
    }
    return errors;
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="policy-title">
      <DialogTitle id="policy-title">
        {policy ? `Change the backup of ${policy.subject}` : `Back up a ${words.one}`}
      </DialogTitle>
      <DialogContent>
        <Form defaultValues={defaults} resolver={resolver} onSubmit={onSubmit} noValidate>
          <Stack spacing={1} sx={{ pt: 1 }}>
            {policy ? (
              <Typography variant="body2" color="text.secondary">
                {words.one[0]!.toUpperCase() + words.one.slice(1)} {policy.subject} on{' '}
                {policy.server_name}
              </Typography>
            ) : (
              <SubjectInputs type={type} />
            )}
            <SelectInput
              size="medium"
              source="target_id"
              label="Storage"
              choices={targets}
              emptyText="The panel's storage"
              helperText="Where the files go; add S3 or SFTP storage on the Backups page"
              fullWidth
            />
            <ScheduleInputs />
            <Typography variant="subtitle2" sx={{ pt: 1 }}>
              How long files are kept
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <NumberInput size="medium" source="keep_last" label="The last" min={1} fullWidth />
              <NumberInput size="medium" source="keep_daily" label="Daily" min={0} fullWidth />
              <NumberInput size="medium" source="keep_weekly" label="Weekly" min={0} fullWidth />
              <NumberInput size="medium" source="keep_monthly" label="Monthly" min={0} fullWidth />
            </Stack>
            {type === 'webapp' ? (
              <TextInput
                size="medium"
                source="excludes_text"
                label="Leave out (one pattern a line)"
                helperText="Relative to the app's folder, e.g. cache or *.log"
                multiline
                minRows={3}
                fullWidth
              />
            ) : null}
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ alignItems: 'center' }}
            >
              <NumberInput
                size="medium"
                source="upload_limit_kib"
                label="Upload limit (KiB/s, empty: none)"
                min={16}
                fullWidth
              />
              <BooleanInput
                source="gentle"
                label="Gentle (low CPU and disk priority)"
                sx={{ minWidth: 280 }}
              />
            </Stack>
            {!policy && type === 'database' ? (
              <Alert severity="info" icon={false}>
                The database is dumped while it runs; the sites using it stay up.
              </Alert>
            ) : null}
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', pt: 1 }}>
              <Button onClick={onClose}>Cancel</Button>
              <SaveButton
                label={policy ? 'Save' : 'Create backup'}
                alwaysEnable
                icon={<SaveOutlined />}
              />
            </Stack>
          </Stack>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
