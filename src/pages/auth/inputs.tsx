import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useTranslate } from 'ra-core';
import { type ChangeEventHandler, type ReactNode, type Ref, useState } from 'react';
import { VisibilityGlyph, VisibilityOffGlyph } from '../../shell/inlineIcons';

export interface AuthInputProps {
  name: string;
  label: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The field's error, shown under it instead of the help. */
  error?: string;
  id?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  helperText?: ReactNode;
  /** Inside the input's right edge (the password's show/hide toggle). */
  endAdornment?: ReactNode;
  /** Attributes of the <input> itself. */
  htmlInput?: InputBaseComponentProps;
}

/**
 * A labelled MUI input of the public pages, its error under it. MUI's TextField, taken apart:
 * TextField imports Select (and with it the menu, popover and modal), which the public pages
 * never show and /login would load for nothing.
 */
export function AuthInput({
  name,
  label,
  id: givenId,
  error,
  helperText,
  required,
  endAdornment,
  htmlInput,
  ...input
}: AuthInputProps) {
  const id = givenId ?? `field-${name}`;
  const help = error ?? helperText;
  const helpId = help ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      className="MuiTextField-root"
      fullWidth
      size="small"
      margin="normal"
      required={required}
      error={error !== undefined}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        name={name}
        label={label}
        aria-describedby={helpId}
        endAdornment={endAdornment}
        inputProps={htmlInput}
      />
      {help && <FormHelperText id={helpId}>{help}</FormHelperText>}
    </FormControl>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordInput(props: AuthInputProps) {
  const translate = useTranslate();
  const [visible, setVisible] = useState(false);
  const toggle = translate(visible ? 'auth.hidePassword' : 'auth.showPassword');
  return (
    <AuthInput
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
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
      }
    />
  );
}
