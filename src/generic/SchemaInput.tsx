import { BooleanInput, NumberInput, SelectInput, TextInput } from 'ra-ui-materialui';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import type { FormField } from './formModel';
import { fieldLabel } from './labels';
import { keepText } from './keepText';
import { AvailabilityWidget } from './widgets/AvailabilityWidget';
import { ChoicesWidget } from './widgets/ChoicesWidget';
import { CodeWidget } from './widgets/CodeWidget';
import { LinesWidget } from './widgets/LinesWidget';
import { OfferedWidget } from './widgets/OfferedWidget';
import { PasswordWidget } from './widgets/PasswordWidget';
import { ReferenceWidget } from './widgets/ReferenceWidget';

export { keepText };

/** The chosen value in words under a select (a stack's description), the help line before one. */
function DescribedHelp({
  name,
  describe,
  help,
}: {
  name: string;
  describe: (value: string) => string;
  help: string | false;
}) {
  const value: unknown = useWatch({ name });
  return <>{typeof value === 'string' && value ? describe(value) : help}</>;
}

export interface SchemaInputProps {
  field: FormField;
  /** The resource the form writes: an availability check asks its create call. */
  resource: string;
  /** The schema the form writes with (an availability check sends a body that passes it). */
  schema: z.ZodObject;
  /** Labels of enum values, e.g. `{ totp: 'Authenticator app' }`. */
  choiceLabels?: Record<string, string>;
  /** The value in words under the input (a cron schedule). */
  describe?: (value: string) => string;
  standIns?: Readonly<Record<string, () => unknown>>;
  autoFocus?: boolean;
}

/**
 * One input: the declared widget when the field has one (password with a generator, name
 * availability, a reference to another resource's records, suggestions with a value of one's
 * own, code), else chosen by the field's schema: string, boolean, enum or number. The declared
 * help line sits under it until an error takes its place.
 */
export function SchemaInput({
  field,
  resource,
  schema,
  choiceLabels,
  describe,
  standIns = {},
  autoFocus,
}: SchemaInputProps) {
  const helperText: string | false = field.help ?? false;
  const { widget } = field;
  if (widget) {
    const props = { field, helperText, autoFocus };
    switch (widget.kind) {
      case 'password':
        return <PasswordWidget {...props} widget={widget} />;
      case 'availability':
        return (
          <AvailabilityWidget
            {...props}
            widget={widget}
            resource={resource}
            schema={schema}
            standIns={standIns}
          />
        );
      case 'reference':
        return <ReferenceWidget {...props} widget={widget} />;
      case 'choices':
        return <ChoicesWidget {...props} widget={widget} describe={describe} />;
      case 'code':
        return <CodeWidget {...props} widget={widget} />;
      case 'lines':
        return <LinesWidget {...props} widget={widget} />;
      case 'offered':
        return <OfferedWidget {...props} widget={widget} />;
    }
  }
  const common = {
    source: field.name,
    label: field.label,
    helperText,
    autoFocus,
    fullWidth: true,
  } as const;
  const { info } = field;
  const type = info.type;
  switch (type.kind) {
    case 'boolean':
      return <BooleanInput {...common} fullWidth={false} />;
    case 'number':
      return (
        <NumberInput {...common} min={type.min} max={type.max} step={type.integer ? 1 : 'any'} />
      );
    case 'select':
      return (
        <SelectInput
          {...common}
          choices={type.choices.map((id) => ({ id, name: choiceLabels?.[id] ?? fieldLabel(id) }))}
          emptyText={info.optional ? '—' : undefined}
          helperText={
            describe ? (
              <DescribedHelp name={field.name} describe={describe} help={helperText} />
            ) : (
              helperText
            )
          }
        />
      );
    case 'text':
      return (
        <TextInput
          {...common}
          parse={keepText}
          type={
            type.format === 'password' ? 'password' : type.format === 'email' ? 'email' : 'text'
          }
          multiline={type.multiline}
          minRows={type.multiline ? 3 : undefined}
          slotProps={{ htmlInput: { maxLength: type.maxLength } }}
        />
      );
    case 'unknown':
      return null;
  }
}
