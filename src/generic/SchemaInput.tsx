import { BooleanInput, NumberInput, SelectInput, TextInput } from 'ra-ui-materialui';
import type { FieldInfo } from './zodFields';
import { fieldLabel } from './labels';

/** Text inputs keep "" as typed; react-admin would turn it into null, which a string refuses. */
export const keepText = (value: string) => value;

export interface SchemaInputProps {
  name: string;
  info: FieldInfo;
  label?: string;
  /** Labels of enum values, e.g. `{ totp: 'Authenticator app' }`. */
  choiceLabels?: Record<string, string>;
  helperText?: string;
}

/** One input chosen by the field's schema: string, boolean, enum or number. */
export function SchemaInput({ name, info, label, choiceLabels, helperText }: SchemaInputProps) {
  const common = {
    source: name,
    label: label ?? fieldLabel(name),
    helperText: helperText ?? false,
    fullWidth: true,
  } as const;
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
