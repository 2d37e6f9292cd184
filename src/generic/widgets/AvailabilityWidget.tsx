import { useEffect, useState } from 'react';
import { Box, FormHelperText } from '@mui/material';
import { useDataProvider } from 'ra-core';
import { TextInput } from 'ra-ui-materialui';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useFormMeta } from '../formMeta';
import { availabilityBody } from '../formModel';
import { keepText } from '../keepText';
import type { WidgetProps } from './widgetProps';

type Check =
  | { state: 'idle' }
  | { state: 'checking'; name: string }
  | { state: 'done'; name: string; available: boolean; reason: string | null };

const DEBOUNCE_MS = 400;

/**
 * A name checked as the user types (debounced): the resource's create call with `?dry=true`
 * answers `{available, reason}`. Fields not filled in yet stand in with generated values (a
 * password), so the server judges only the name. A read, not a write: no cache to follow.
 */
export function AvailabilityWidget({
  field,
  helperText,
  autoFocus,
  resource,
  schema,
  standIns,
}: WidgetProps<'availability'> & {
  resource: string;
  schema: z.ZodObject;
  /** Values for fields not filled in yet (a generated password), so the body passes. */
  standIns: Readonly<Record<string, () => unknown>>;
}) {
  const dataProvider = useDataProvider();
  const meta = useFormMeta();
  const values = useWatch() as Record<string, unknown>;
  const value = typeof values[field.name] === 'string' ? (values[field.name] as string) : '';
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  useEffect(() => {
    const body = availabilityBody(schema, values, field.name, standIns);
    if (!body) {
      setCheck({ state: 'idle' });
      return;
    }
    const name = value.trim();
    let live = true;
    const timer = setTimeout(() => {
      setCheck({ state: 'checking', name });
      dataProvider
        .create(resource, { meta: { ...meta, query: { dry: 'true' } }, data: body })
        .then(({ data }) => {
          if (!live) return;
          const answer = data as unknown as { available?: boolean; reason?: string | null };
          if (typeof answer.available !== 'boolean') setCheck({ state: 'idle' });
          else
            setCheck({
              state: 'done',
              name,
              available: answer.available,
              reason: answer.reason ?? null,
            });
        })
        .catch(() => live && setCheck({ state: 'idle' }));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // Only the checked value starts a new check; the other values only fill the body.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, resource, dataProvider, meta, schema, field.name, standIns]);

  return (
    <Box sx={{ width: '100%' }}>
      <TextInput
        source={field.name}
        label={field.label}
        parse={keepText}
        helperText={helperText}
        autoFocus={autoFocus}
        autoComplete="off"
        fullWidth
      />
      {check.state === 'checking' ? (
        <FormHelperText role="status" sx={{ mt: -1, mb: 1 }}>
          Checking {check.name}…
        </FormHelperText>
      ) : check.state === 'done' ? (
        <FormHelperText
          role="status"
          data-testid="name-availability"
          sx={{ mt: -1, mb: 1, color: check.available ? 'success.main' : 'error.main' }}
        >
          {check.available
            ? `${check.name} is available`
            : `${check.name} cannot be used: ${check.reason ?? 'taken'}`}
        </FormHelperText>
      ) : null}
    </Box>
  );
}
