import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { AuthInput, type AuthInputProps, PasswordInput } from './inputs';

type FormTextFieldProps<T extends FieldValues> = Omit<
  AuthInputProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'error'
> & {
  control: Control<T>;
  name: Path<T>;
};

/** A public page's input (inputs.tsx) bound to react-hook-form; the field's error shows under it. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  ...props
}: FormTextFieldProps<T> & { password?: boolean }) {
  const { password, ...input } = props;
  const Input = password ? PasswordInput : AuthInput;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Input
          {...input}
          name={field.name}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField<T extends FieldValues>(props: FormTextFieldProps<T>) {
  return <FormTextField {...props} password />;
}

/** The 6-digit code input of the confirm, OTP and reset pages. */
export function CodeField<T extends FieldValues>(props: FormTextFieldProps<T>) {
  return (
    <FormTextField
      {...props}
      autoComplete="one-time-code"
      htmlInput={{
        inputMode: 'numeric',
        maxLength: 6,
        pattern: '[0-9]*',
        style: { letterSpacing: '0.5em', fontSize: 22, fontWeight: 600, textAlign: 'center' },
      }}
    />
  );
}
