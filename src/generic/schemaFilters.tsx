import type { ReactElement } from 'react';
import { NullableBooleanInput, SearchInput, SelectInput, TextInput } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { Widget } from '../../resources/define';
import { fieldsOf } from './zodFields';
import { fieldLabel } from './labels';
import { ReferenceFilterInput } from './widgets/ReferenceWidget';

/**
 * The filter inputs of a list, from its declared `filters` schema: `q` is the search box, an
 * enum a select, a boolean a yes/no/any select, any other string a text box. All stay visible.
 */
export function schemaFilters(
  filters: z.ZodObject | undefined,
  options: {
    labels?: Record<string, string>;
    choiceLabels?: Record<string, Record<string, string>>;
    searchPlaceholder?: string;
    /** The declared widgets: a reference filter lists the other resource's records. */
    widgets?: Readonly<Record<string, Widget>>;
    /** Which declared filters to show (all by default). */
    only?: readonly string[];
  } = {},
): ReactElement[] {
  if (!filters) return [];
  const fields = fieldsOf(filters).filter(
    ({ name }) => !options.only || options.only.includes(name),
  );
  return fields.flatMap(({ name, info }) => {
    const label = options.labels?.[name] ?? fieldLabel(name);
    const widget = options.widgets?.[name];
    if (widget?.kind === 'reference' && !widget.multiple)
      return [
        <ReferenceFilterInput key={name} source={name} label={label} widget={widget} alwaysOn />,
      ];
    if (name === 'q') {
      return [
        <SearchInput
          key={name}
          source={name}
          alwaysOn
          placeholder={options.searchPlaceholder ?? 'Search'}
          sx={{ width: { xs: '100%', sm: 320 } }}
          slotProps={{ htmlInput: { 'aria-label': options.searchPlaceholder ?? 'Search' } }}
        />,
      ];
    }
    switch (info.type.kind) {
      case 'select': {
        const names = options.choiceLabels?.[name] ?? {};
        return [
          <SelectInput
            key={name}
            source={name}
            label={label}
            alwaysOn
            emptyText="All"
            choices={info.type.choices.map((id) => ({ id, name: names[id] ?? fieldLabel(id) }))}
            sx={{ minWidth: 180 }}
          />,
        ];
      }
      case 'boolean':
        return [<NullableBooleanInput key={name} source={name} label={label} alwaysOn />];
      case 'text':
        return [<TextInput key={name} source={name} label={label} alwaysOn />];
      default:
        return [];
    }
  });
}
