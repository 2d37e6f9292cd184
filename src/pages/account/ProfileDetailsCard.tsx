import { useMemo } from 'react';
import { Box, Stack } from '@mui/material';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import { Form } from 'ra-core';
import { BooleanInput, SaveButton } from 'ra-ui-materialui';
import { flag } from '../../../resources/define';
import { type User, type UserUpdate, profileFields } from '../../../resources/user-profile';
import { fieldLabel } from '../../generic/labels';
import { ProfileFields } from '../../generic/ProfileFields';
import { schemaResolver } from '../../generic/schemaResolver';
import { SectionCard } from '../../generic/SectionCard';
import { useSubmitHandler } from '../../generic/useSubmitHandler';

/** The profile fields of spec section 3, validated by the declared schema itself. */
const profileForm = profileFields.extend({ LoginNotif: flag });
const FIELDS = Object.keys(profileForm.shape);
const resolver = schemaResolver(profileForm);

interface Props {
  user: User;
  save: (data: UserUpdate) => Promise<User>;
}

/** Name, company, address, country, tax number, time zone and the sign-in mail switch. */
export function ProfileDetailsCard({ user, save }: Props) {
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
        <ProfileFields timeZone={user.TimeZone} autofill>
          <BooleanInput
            source="LoginNotif"
            label={fieldLabel('LoginNotif')}
            helperText="A mail on each new sign-in helps you spot one that is not yours."
          />
        </ProfileFields>
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Box>
            <SaveButton label="Save changes" />
          </Box>
        </Stack>
      </Form>
    </SectionCard>
  );
}
