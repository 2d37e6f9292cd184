import { TextInput } from 'ra-ui-materialui';
import type { WidgetProps } from './widgetProps';

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
