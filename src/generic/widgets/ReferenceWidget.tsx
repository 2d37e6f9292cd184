import { useMemo } from 'react';
import { useGetList } from 'ra-core';
import { SelectArrayInput, SelectInput } from 'ra-ui-materialui';
import { useFormMeta } from '../formMeta';
import { referenceChoices } from '../formModel';
import type { Of, WidgetProps } from './widgetProps';

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
