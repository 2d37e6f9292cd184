import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslate } from 'ra-core';
import { useState } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { VisibilityGlyph, VisibilityOffGlyph } from '../../shell/inlineIcons';

type FormTextFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name'> & {
  control: Control<T>;
  name: Path<T>;
  label: string;
};

/** A labelled MUI input bound to react-hook-form; the field's error shows under it. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  helperText,
  ...props
}: FormTextFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          id={props.id ?? `field-${name}`}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ?? helperText}
          margin="normal"
        />
      )}
    />
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField<T extends FieldValues>(props: FormTextFieldProps<T>) {
  const translate = useTranslate();
  const [visible, setVisible] = useState(false);
  const toggle = translate(visible ? 'auth.hidePassword' : 'auth.showPassword');
  return (
    <FormTextField
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                onClick={() => setVisible(!visible)}
                aria-label={toggle}
                aria-pressed={visible}
                edge="end"
                size="small"
              >
                {visible ? (
                  <VisibilityOffGlyph fontSize="small" />
                ) : (
                  <VisibilityGlyph fontSize="small" />
                )}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** The 6-digit code input of the confirm, OTP and reset pages. */
export function CodeField<T extends FieldValues>(props: FormTextFieldProps<T>) {
  return (
    <FormTextField
      {...props}
      autoComplete="one-time-code"
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          maxLength: 6,
          pattern: '[0-9]*',
          style: { letterSpacing: '0.5em', fontSize: 22, fontWeight: 600, textAlign: 'center' },
        },
      }}
    />
  );
}
