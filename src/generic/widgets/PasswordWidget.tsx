import { Button, Stack } from '@mui/material';
import Casino from '@mui/icons-material/Casino';
import { TextInput } from 'ra-ui-materialui';
import { useFormContext, useWatch } from 'react-hook-form';
import { CopyButton } from '../CopyButton';
import { keepText } from '../keepText';
import { generatePassword } from '../passwords';
import type { WidgetProps } from './widgetProps';

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
