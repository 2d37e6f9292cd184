import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useFormContext } from 'react-hook-form';
import { useStackdeckData } from '../../hooks';
import { useFormMeta } from '../formMeta';
import { ChoicesWidget } from './ChoicesWidget';
import type { WidgetProps } from './widgetProps';

/**
 * The values the page's server offers (its collations), as suggestions of a combo box: while
 * they load, or when the server cannot answer, the input still takes a typed value. With
 * `only`, a select of the server's values once it answers, holding one of them.
 */
export function OfferedWidget({ field, widget, helperText, autoFocus }: WidgetProps<'offered'>) {
  const dp = useStackdeckData();
  const { sid } = useFormMeta();
  const { getValues, setValue } = useFormContext();
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
  const strict = Boolean(widget.only) && choices.length > 0;
  // A default the server does not have (PHP 8.2 on a server with 8.3 only) gives way to its first.
  useEffect(() => {
    if (!strict) return;
    const current = String(getValues(field.name) ?? '');
    if (!choices.some((choice) => choice.value === current))
      setValue(field.name, choices[0]!.value, { shouldDirty: false });
  }, [strict, choices, field.name, getValues, setValue]);
  const help = error ? `The server's list could not be read; type a value` : helperText;
  // A select names each option by its value, the hint beside it.
  const shown = strict
    ? choices.map((c) => ({ value: c.value, label: c.label ? `${c.value} (${c.label})` : c.value }))
    : choices;
  return (
    <ChoicesWidget
      field={field}
      widget={{ kind: 'choices', choices: shown, custom: !strict }}
      helperText={help}
      autoFocus={autoFocus}
    />
  );
}
