import { TextInput } from 'ra-ui-materialui';
import { keepText } from '../keepText';
import type { WidgetProps } from './widgetProps';

/** Commands and scripts: several lines, monospace, spell-checking off. */
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
