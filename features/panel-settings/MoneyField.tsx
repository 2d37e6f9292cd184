import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { decimalToMinor, minorToDecimal } from '../payments/api';

interface MoneyFieldProps {
  label: string;
  /** The amount in minor units of `currency` (1250 USD is 12.50). */
  valueMinor: number;
  currency: string;
  onChange: (minor: number | null) => void;
  /** The server's or the schema's word on the amount. */
  error?: string;
  helperText?: string;
  id: string;
}

/**
 * An amount typed as a decimal of its currency (12.50 USD, 1250 JPY) and handed on as integer
 * minor units, exactly (payments' decimalToMinor): null while what is typed is not an amount.
 */
export function MoneyField({
  label,
  valueMinor,
  currency,
  onChange,
  error,
  helperText,
  id,
}: MoneyFieldProps) {
  const [text, setText] = useState(() => minorToDecimal(valueMinor, currency));
  const [typo, setTypo] = useState<string | null>(null);
  // Another currency or a value from the server: shown as that currency writes it.
  useEffect(() => {
    setText((current) => {
      try {
        if (decimalToMinor(current, currency) === valueMinor) return current;
      } catch {
        // What was typed is not an amount of this currency: the value wins.
      }
      return minorToDecimal(valueMinor, currency);
    });
  }, [valueMinor, currency]);
  const change = (next: string) => {
    setText(next);
    try {
      const minor = decimalToMinor(next, currency);
      if (minor < 0) throw new RangeError('Not below zero');
      setTypo(null);
      onChange(minor);
    } catch (e) {
      setTypo(
        e instanceof RangeError && /decimals/.test(e.message)
          ? `${currency} has ${minorToDecimal(0, currency).split('.')[1]?.length ?? 0} decimals at most`
          : e instanceof RangeError && /zero/.test(e.message)
            ? 'Not below zero'
            : `An amount, e.g. ${minorToDecimal(1250, currency)}`,
      );
      onChange(null);
    }
  };
  const message = typo ?? error;
  return (
    <TextField
      id={id}
      label={label}
      value={text}
      onChange={(e) => change(e.target.value)}
      error={Boolean(message)}
      helperText={message ?? helperText}
      slotProps={{
        htmlInput: { inputMode: 'decimal' },
        input: { endAdornment: <InputAdornment position="end">{currency}</InputAdornment> },
      }}
      fullWidth
    />
  );
}
