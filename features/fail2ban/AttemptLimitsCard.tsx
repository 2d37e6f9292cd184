import { Alert, Box, LinearProgress, Stack, Typography } from '@mui/material';
import Shield from '@mui/icons-material/ShieldOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Form, useNotify } from 'ra-core';
import { NumberInput, SaveButton } from 'ra-ui-materialui';
import type { FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage, submitFailure } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import {
  ATTEMPT_KINDS,
  ATTEMPT_LABELS,
  type AttemptKind,
  type AttemptLimit,
  type AttemptState,
  MAX_ATTEMPTS,
  attemptLimitSchema,
} from './resource';

const KINDS = Object.keys(ATTEMPT_KINDS) as AttemptKind[];
const FIELDS = ['value', 'ban_time', 'find_time'] as const;
type Values = Record<AttemptKind, AttemptLimit>;

// One schema for the five rows: the same rules the server applies to each PATCH.
const formSchema = z.object(
  Object.fromEntries(KINDS.map((k) => [k, attemptLimitSchema])) as Record<
    AttemptKind,
    typeof attemptLimitSchema
  >,
);
const resolver = zodResolver(formSchema as never) as unknown as Resolver<FieldValues>;

const limitOf = (s: AttemptState): AttemptLimit => ({
  value: s.value,
  ban_time: s.ban_time,
  find_time: s.find_time,
});

/**
 * Failed logins allowed per service before fail2ban bans the source (spec csf/{kind}), read
 * live from the server. Self-contained: it reads and saves through the dataProvider and only
 * needs the server; saving sends only the rows that changed, each checked by fail2ban. The five
 * reads go out together, and the panel answers them with one read of the server (server.ts).
 */
export function AttemptLimitsCard({ serverId }: { serverId: string | number }) {
  const sid = Number(serverId);
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const keyOf = (kind: AttemptKind) => ['attemptlimits', sid, kind];
  const results = useQueries({
    queries: KINDS.map((kind) => ({
      queryKey: keyOf(kind),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        dp.action<AttemptState>('attemptlimits', `read_${kind}`, { params: { sid }, signal }),
      retry: false,
    })),
  });
  const error = results.find((r) => r.error)?.error;
  const states = results.map((r) => r.data);
  const ready = states.every((s): s is AttemptState => Boolean(s));
  const loaded = ready
    ? (Object.fromEntries(states.map((s) => [s.kind, limitOf(s)])) as Values)
    : null;

  const onSubmit = async (values: FieldValues) => {
    const errors: Record<string, string> = {};
    let saved = 0;
    for (const kind of KINDS) {
      const next = (values as Values)[kind];
      const before = loaded?.[kind];
      const changed = Object.fromEntries(
        FIELDS.filter((f) => before?.[f] !== next[f]).map((f) => [f, next[f]]),
      );
      if (!Object.keys(changed).length) continue;
      try {
        const state = await dp.action<AttemptState>('attemptlimits', `change_${kind}`, {
          params: { sid },
          body: changed,
        });
        queryClient.setQueryData(keyOf(kind), state);
        saved += 1;
      } catch (e) {
        const { fields, general } = submitFailure(e, FIELDS);
        for (const [field, message] of Object.entries(fields)) errors[`${kind}.${field}`] = message;
        if (general) errors[`${kind}.value`] = general;
      }
    }
    if (Object.keys(errors).length) return errors;
    notify(saved ? 'Attempt limits saved; fail2ban reloaded.' : 'Nothing to save.', {
      type: saved ? 'success' : 'info',
    });
    return undefined;
  };

  return (
    <SectionCard
      id="attempt-limits"
      title="Login attempt limits"
      subtitle={`Failed logins from one address before fail2ban bans it from that service (0 = off, at most ${MAX_ATTEMPTS}).`}
      icon={Shield}
    >
      {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
      {!ready && !error ? <LinearProgress aria-label="Reading attempt limits" /> : null}
      {loaded ? (
        <Form
          key={JSON.stringify(loaded)}
          defaultValues={loaded}
          resolver={resolver}
          onSubmit={onSubmit}
          noValidate
        >
          <Stack spacing={1}>
            {KINDS.map((kind, i) => {
              const state = states[i]!;
              return (
                <Box key={kind} role="group" aria-label={`${ATTEMPT_LABELS[kind].label} limit`}>
                  <Typography variant="subtitle2" sx={{ mb: 1.5 }}>
                    {ATTEMPT_LABELS[kind].label}
                    {state.active
                      ? ` · active${state.banned.length ? `, ${state.banned.length} banned` : ''}`
                      : ' · off'}
                  </Typography>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <NumberInput
                      source={`${kind}.value`}
                      label={`${ATTEMPT_LABELS[kind].label} attempts`}
                      helperText={ATTEMPT_LABELS[kind].helper}
                      min={0}
                      max={MAX_ATTEMPTS}
                    />
                    <NumberInput
                      source={`${kind}.ban_time`}
                      label={`${ATTEMPT_LABELS[kind].label} ban (seconds)`}
                      helperText="How long a ban lasts"
                      min={60}
                    />
                    <NumberInput
                      source={`${kind}.find_time`}
                      label={`${ATTEMPT_LABELS[kind].label} window (seconds)`}
                      helperText="Failures counted within"
                      min={60}
                    />
                  </Stack>
                </Box>
              );
            })}
          </Stack>
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SaveButton label="Save attempt limits" />
          </Stack>
        </Form>
      ) : null}
    </SectionCard>
  );
}
