import { type ReactNode, useMemo } from 'react';
import { Grid } from '@mui/material';
import { AutocompleteInput, TextInput } from 'ra-ui-materialui';
import { COUNTRIES } from './countries';
import { fieldLabel } from './labels';
import { keepText } from './keepText';
import { timeZoneEntries, withCurrentZone } from './timeZones';

const COUNTRY_CHOICES = COUNTRIES.map((country) => ({
  id: country.code,
  name: `${country.flag} ${country.name}`,
}));

/** The address fields of spec section 3, in the order both profile forms show them. */
const ADDRESS_FIELDS: { name: string; autoComplete: string; wide?: boolean }[] = [
  { name: 'CompanyName', autoComplete: 'organization' },
  { name: 'Addr_1', autoComplete: 'address-line1', wide: true },
  { name: 'Addr_2', autoComplete: 'address-line2', wide: true },
  { name: 'City', autoComplete: 'address-level2' },
  { name: 'State', autoComplete: 'address-level1' },
  { name: 'PostalCode', autoComplete: 'postal-code' },
];

export interface ProfileFieldsProps {
  /** The zone the record holds, offered even when this browser does not know it. */
  timeZone: string | null | undefined;
  /** Every field shown but disabled (admin staff read an account, they do not change it). */
  readOnly?: boolean;
  /**
   * The browser's autofill for the address: on the holder's own profile; off where an admin
   * edits someone else's (their own address would fill another account's).
   */
  autofill?: boolean;
  /** The sign-in address, after the name (the admin's form): whether it may change, and why not. */
  email?: { disabled: boolean; helperText?: string };
  /** Switches after the fields (the sign-in mail, the staff role), each in its own row. */
  children?: ReactNode;
}

/**
 * The profile's fields (name, company, address, country, tax number, time zone) inside a
 * react-admin Form: the account holder's profile and the admin's view of an account both use
 * them, editable or read-only.
 */
export function ProfileFields({
  timeZone,
  readOnly = false,
  autofill = false,
  email,
  children,
}: ProfileFieldsProps) {
  const zones = useMemo(
    () => withCurrentZone(timeZoneEntries(), timeZone ?? undefined),
    [timeZone],
  );
  const text = (name: string, options: { autoComplete?: string; helperText?: string } = {}) => (
    <TextInput
      source={name}
      label={name === 'email' ? 'Email' : fieldLabel(name)}
      parse={keepText}
      autoComplete={autofill ? options.autoComplete : undefined}
      helperText={options.helperText}
      disabled={readOnly || (name === 'email' && email?.disabled)}
      fullWidth
    />
  );
  return (
    <Grid container columnSpacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>{text('user_name', { autoComplete: 'name' })}</Grid>
      {email ? (
        <Grid size={{ xs: 12, sm: 6 }}>{text('email', { helperText: email.helperText })}</Grid>
      ) : null}
      {ADDRESS_FIELDS.map(({ name, autoComplete, wide }) => (
        <Grid key={name} size={{ xs: 12, sm: wide ? 12 : 6 }}>
          {text(name, { autoComplete })}
        </Grid>
      ))}
      <Grid size={{ xs: 12, sm: 6 }}>
        <AutocompleteInput
          source="Country"
          label="Country"
          choices={COUNTRY_CHOICES}
          emptyValue=""
          disabled={readOnly}
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{text('TaxNum', { helperText: 'Printed on invoices' })}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <AutocompleteInput
          source="TimeZone"
          label="Time zone"
          choices={zones}
          optionValue="value"
          optionText="text"
          emptyValue=""
          disabled={readOnly}
          fullWidth
        />
      </Grid>
      {children ? <Grid size={12}>{children}</Grid> : null}
    </Grid>
  );
}
