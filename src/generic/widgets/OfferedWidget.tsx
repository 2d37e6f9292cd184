import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useStackdeckData } from '../../hooks';
import { useFormMeta } from '../formMeta';
import { ChoicesWidget } from './ChoicesWidget';
import type { WidgetProps } from './widgetProps';

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
