import { useEffect, useMemo, useState } from 'react';
import { Autocomplete, Box, Button, FormHelperText, Stack, TextField } from '@mui/material';
import Casino from '@mui/icons-material/Casino';
import { useDataProvider, useGetList, useInput } from 'ra-core';
import { useQuery } from '@tanstack/react-query';
import { useStackdeckData } from '../hooks';
import { SelectArrayInput, SelectInput, TextInput } from 'ra-ui-materialui';
import { useFormContext, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import type { Widget } from '../../resources/define';
import { CopyButton } from './CopyButton';
import { useFormMeta } from './formMeta';
import { type FormField, availabilityBody, choiceLabel, referenceChoices } from './formModel';
import { generatePassword } from './passwords';
import { keepText } from './keepText';

type Of<K extends Widget['kind']> = Extract<Widget, { kind: K }>;

interface WidgetProps<K extends Widget['kind']> {
  field: FormField;
  widget: Of<K>;
  /** The declared help line, or false. */
  helperText: string | false;
  autoFocus?: boolean;
}

/** A secret with a generator and a copy button; the strength rule is the schema's. */
export function PasswordWidget({ field, widget, helperText, autoFocus }: WidgetProps<'password'>) {
  const { setValue } = useFormContext();
  const value = (useWatch({ name: field.name }) as string | undefined) ?? '';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', width: '100%' }}>
      <TextInput
        source={field.name}
        label={field.label}
        parse={keepText}
        autoComplete="new-password"
        helperText={helperText}
        autoFocus={autoFocus}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        fullWidth
      />
      <Stack direction="row" sx={{ pt: 1.5, alignItems: 'center', flexShrink: 0 }}>
        <Button
          size="small"
          startIcon={<Casino />}
          onClick={() =>
            setValue(field.name, generatePassword(widget.length), {
              shouldDirty: true,
              shouldValidate: true,
            })
          }
        >
          Generate
        </Button>
        {value ? (
          <CopyButton value={value} label={`Copy the ${field.label.toLowerCase()}`} />
        ) : null}
      </Stack>
    </Stack>
  );
}

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

/** How many records a reference offers: a server's users or databases fit in one page. */
const REFERENCE_LIMIT = 500;

/**
 * A choice among the records of another resource of the same server (its system users), with
 * fixed extras first (root). Read through react-admin's cache, so a user created elsewhere in
 * the panel shows here at once.
 */
export function ReferenceWidget({
  field,
  widget,
  helperText,
  autoFocus,
}: WidgetProps<'reference'>) {
  const meta = useFormMeta();
  const { data, isPending, error } = useGetList(widget.resource, {
    pagination: { page: 1, perPage: REFERENCE_LIMIT },
    meta,
  });
  const choices = useMemo(() => referenceChoices(widget, data ?? []), [widget, data]);
  const common = {
    source: field.name,
    label: field.label,
    choices,
    isPending: isPending && !widget.extra?.length,
    helperText: error ? `The ${widget.resource} could not be loaded` : helperText,
    autoFocus,
    fullWidth: true,
  };
  return widget.multiple ? (
    <SelectArrayInput {...common} />
  ) : (
    <SelectInput {...common} emptyText={field.info.optional ? '—' : undefined} />
  );
}

/**
 * A list filter over another resource's records (the jobs of one system user): the same
 * choices as the reference input, "All" for none.
 */
export function ReferenceFilterInput({
  source,
  label,
  widget,
}: {
  source: string;
  label: string;
  widget: Of<'reference'>;
  /** Read by react-admin's filter form: the filter is always shown. */
  alwaysOn?: boolean;
}) {
  const meta = useFormMeta();
  const { data } = useGetList(widget.resource, {
    pagination: { page: 1, perPage: REFERENCE_LIMIT },
    meta,
  });
  const choices = useMemo(
    () => referenceChoices(widget, data ?? []).map(({ id, name }) => ({ id, name })),
    [widget, data],
  );
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      emptyText="All"
      sx={{ minWidth: 180 }}
    />
  );
}

/**
 * The values the page's server offers (its collations), as suggestions of a combo box: while
 * they load, or when the server cannot answer, the input still takes a typed value.
 */
export function OfferedWidget({ field, widget, helperText, autoFocus }: WidgetProps<'offered'>) {
  const dp = useStackdeckData();
  const { sid } = useFormMeta();
  const { data, error } = useQuery({
    queryKey: ['offered', widget.resource, widget.action, sid],
    queryFn: ({ signal }) =>
      dp.action<{ data: Record<string, unknown>[] }>(widget.resource, widget.action, {
        // The server is named in the action's path, or by a query parameter where the path has none.
        ...(widget.serverParam ? { query: { [widget.serverParam]: sid } } : { params: { sid } }),
        signal,
      }),
    enabled: sid !== undefined,
    staleTime: 10 * 60_000,
    retry: false,
  });
  const choices = useMemo(
    () =>
      (data?.data ?? []).map((item) => ({
        value: String(item[widget.optionValue]),
        label: widget.optionHint ? String(item[widget.optionHint]) : '',
      })),
    [data, widget.optionValue, widget.optionHint],
  );
  const help = error ? `The server's list could not be read; type a value` : helperText;
  return (
    <ChoicesWidget
      field={field}
      widget={{ kind: 'choices', choices, custom: true }}
      helperText={help}
      autoFocus={autoFocus}
    />
  );
}

/**
 * Suggested values with their labels, and (with `custom`) any value typed by hand: a combo box
 * whose text is the value. `describe` says the value in words under it (a cron schedule).
 */
export function ChoicesWidget({
  field,
  widget,
  helperText,
  autoFocus,
  describe,
}: WidgetProps<'choices'> & { describe?: (value: string) => string }) {
  const {
    field: input,
    fieldState,
    isRequired,
  } = useInput({ source: field.name, parse: keepText });
  const value = typeof input.value === 'string' ? input.value : '';
  const error = fieldState.error?.message;
  const words = value.trim() && describe && !error ? describe(value) : null;
  const options = widget.choices.map((choice) => choice.value);
  const labelOf = (option: string) => {
    const label = choiceLabel(widget.choices, option);
    return label ? `${label} — ${option}` : option;
  };
  if (!widget.custom)
    return (
      <SelectInput
        source={field.name}
        label={field.label}
        choices={widget.choices.map((c) => ({ id: c.value, name: c.label }))}
        helperText={helperText}
        autoFocus={autoFocus}
        fullWidth
      />
    );
  return (
    <Box sx={{ width: '100%', mb: 1 }}>
      <Autocomplete
        freeSolo
        autoSelect={false}
        options={options}
        value={value}
        inputValue={value}
        onInputChange={(_event, text) => input.onChange(text)}
        onChange={(_event, chosen) => input.onChange(chosen ?? '')}
        getOptionLabel={(option) => option}
        renderOption={(props, option) => (
          <li {...props} key={option}>
            <Box>
              {choiceLabel(widget.choices, option)}
              <Box
                component="span"
                sx={{ ml: 1, fontFamily: 'monospace', color: 'text.secondary' }}
              >
                {option}
              </Box>
            </Box>
          </li>
        )}
        // All suggestions on opening; while typing, those the text matches (by label or value),
        // never the value already there, so a typed value leaves the page free to save.
        filterOptions={(all, state) => suggestionsFor(widget.choices, all, state.inputValue)}
        renderInput={(params) => (
          <TextField
            {...params}
            name={input.name}
            inputRef={input.ref}
            onBlur={input.onBlur}
            label={field.label}
            required={isRequired}
            autoFocus={autoFocus}
            error={Boolean(error)}
            helperText={error ?? (helperText || undefined)}
            slotProps={{
              htmlInput: {
                ...params.inputProps,
                spellCheck: false,
                style: { fontFamily: 'monospace' },
                'aria-describedby': words ? `${field.name}-words` : undefined,
              },
            }}
          />
        )}
        aria-label={field.label}
        title={labelOf(value)}
      />
      {words ? (
        <FormHelperText
          id={`${field.name}-words`}
          data-testid={`${field.name}-words`}
          sx={{ mx: 1.75, color: 'text.primary', fontWeight: 500 }}
        >
          {words}
        </FormHelperText>
      ) : null}
    </Box>
  );
}

/** The suggestions the list shows for what is typed. */
function suggestionsFor(
  choices: readonly { label: string; value: string }[],
  all: string[],
  typed: string,
): string[] {
  const text = typed.trim().toLowerCase();
  if (!text) return all;
  return all.filter((option) => {
    if (option === typed.trim()) return false;
    const label = choiceLabel(choices, option)?.toLowerCase() ?? '';
    return option.startsWith(text) || label.includes(text);
  });
}

/** Commands and scripts: several lines, monospace, spell-checking off. */
/** Lines typed -> the list: blank lines drop out, but the one being typed stays open. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const last = lines.pop() ?? '';
  return [
    ...lines.filter((line) => line.trim() !== ''),
    ...(text.endsWith('\n') || last ? [last] : []),
  ];
}

/** A list of short strings, one per line (an app's domains). */
export function LinesWidget({ field, helperText, autoFocus }: WidgetProps<'lines'>) {
  return (
    <TextInput
      source={field.name}
      label={field.label}
      format={(value: unknown) => (Array.isArray(value) ? value.join('\n') : '')}
      parse={linesOf}
      helperText={helperText}
      autoFocus={autoFocus}
      multiline
      minRows={2}
      fullWidth
      slotProps={{
        htmlInput: { spellCheck: false, autoCapitalize: 'off', autoCorrect: 'off' },
      }}
    />
  );
}

export function CodeWidget({ field, helperText, autoFocus }: WidgetProps<'code'>) {
  return (
    <TextInput
      source={field.name}
      label={field.label}
      parse={keepText}
      helperText={helperText}
      autoFocus={autoFocus}
      multiline
      minRows={2}
      fullWidth
      slotProps={{
        htmlInput: {
          spellCheck: false,
          autoCapitalize: 'off',
          autoCorrect: 'off',
          style: { fontFamily: 'monospace' },
          maxLength: field.info.type.kind === 'text' ? field.info.type.maxLength : undefined,
        },
      }}
    />
  );
}
