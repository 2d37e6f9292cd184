import { useMemo } from 'react';
import { Box, Grid, Stack } from '@mui/material';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import { Form } from 'ra-core';
import { AutocompleteInput, BooleanInput, SaveButton, TextInput } from 'ra-ui-materialui';
import { flag } from '../../../resources/define';
import { type User, type UserUpdate, profileFields } from '../../../resources/user-profile';
import { COUNTRIES } from '../../generic/countries';
import { fieldLabel } from '../../generic/labels';
import { keepText } from '../../generic/SchemaInput';
import { schemaResolver } from '../../generic/schemaResolver';
import { SectionCard } from '../../generic/SectionCard';
import { timeZoneEntries, withCurrentZone } from '../../generic/timeZones';
import { useSubmitHandler } from '../../generic/useSubmitHandler';

/** The profile fields of spec section 3, validated by the declared schema itself. */
const profileForm = profileFields.extend({ LoginNotif: flag });
const FIELDS = Object.keys(profileForm.shape);
const resolver = schemaResolver(profileForm);

const COUNTRY_CHOICES = COUNTRIES.map((country) => ({
  id: country.code,
  name: `${country.flag} ${country.name}`,
}));

const TEXT_FIELDS: { name: keyof UserUpdate; autoComplete: string; wide?: boolean }[] = [
  { name: 'user_name', autoComplete: 'name' },
  { name: 'CompanyName', autoComplete: 'organization' },
  { name: 'Addr_1', autoComplete: 'address-line1', wide: true },
  { name: 'Addr_2', autoComplete: 'address-line2', wide: true },
  { name: 'City', autoComplete: 'address-level2' },
  { name: 'State', autoComplete: 'address-level1' },
  { name: 'PostalCode', autoComplete: 'postal-code' },
];

interface Props {
  user: User;
  save: (data: UserUpdate) => Promise<User>;
}

/** Name, company, address, country, tax number, time zone and the sign-in mail switch. */
export function ProfileDetailsCard({ user, save }: Props) {
  const zones = useMemo(() => withCurrentZone(timeZoneEntries(), user.TimeZone), [user.TimeZone]);
  const onSubmit = useSubmitHandler<UserUpdate>(FIELDS, save, 'Profile saved');
  const record = useMemo(
    () => Object.fromEntries(FIELDS.map((name) => [name, user[name as keyof User] ?? ''])),
    [user],
  );

  return (
    <SectionCard
      id="profile-details"
      title="Profile details"
      subtitle="Shown on invoices and used to reach you."
      icon={BadgeOutlined}
    >
      <Form record={record} resolver={resolver} onSubmit={onSubmit} noValidate>
        <Grid container columnSpacing={2}>
          {TEXT_FIELDS.map(({ name, autoComplete, wide }) => (
            <Grid key={name} size={{ xs: 12, sm: wide ? 12 : 6 }}>
              <TextInput
                source={name}
                label={fieldLabel(name)}
                parse={keepText}
                autoComplete={autoComplete}
                fullWidth
              />
            </Grid>
          ))}
          <Grid size={{ xs: 12, sm: 6 }}>
            <AutocompleteInput
              source="Country"
              label="Country"
              choices={COUNTRY_CHOICES}
              emptyValue=""
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextInput
              source="TaxNum"
              label={fieldLabel('TaxNum')}
              parse={keepText}
              helperText="Printed on invoices"
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <AutocompleteInput
              source="TimeZone"
              label="Time zone"
              choices={zones}
              optionValue="value"
              optionText="text"
              emptyValue=""
              fullWidth
            />
          </Grid>
          <Grid size={12}>
            <BooleanInput
              source="LoginNotif"
              label={fieldLabel('LoginNotif')}
              helperText="A mail on each new sign-in helps you spot one that is not yours."
            />
          </Grid>
        </Grid>
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Box>
            <SaveButton label="Save changes" />
          </Box>
        </Stack>
      </Form>
    </SectionCard>
  );
}
