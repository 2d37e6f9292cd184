import { useMemo } from 'react';
import { Box, Stack } from '@mui/material';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { Form, useGetIdentity } from 'ra-core';
import { BooleanInput, SaveButton } from 'ra-ui-materialui';
import type { User } from '../../resources/user-profile';
import { ProfileFields } from '../../src/generic/ProfileFields';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { SectionCard } from '../../src/generic/SectionCard';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckData } from '../../src/hooks';
import { ADMIN_EDITABLE, adminUserUpdate } from './schemas';

/** The form's fields: what `PATCH admin/update-user` takes, the user's id aside. */
const adminForm = adminUserUpdate.pick({
  user_name: true,
  email: true,
  CompanyName: true,
  Addr_1: true,
  Addr_2: true,
  City: true,
  State: true,
  PostalCode: true,
  Country: true,
  TaxNum: true,
  TimeZone: true,
  is_admin_staff: true,
});
const resolver = schemaResolver(adminForm);

/** What the admin changed: only that is sent, so only that is written and logged. */
const changedFields = (values: Record<string, unknown>, before: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== before[key]));

/**
 * The account's details: an admin changes them (`PATCH admin/update-user`, only what changed,
 * each change in the user's activity with the admin's name); admin staff read them. Never the
 * password or two-factor sign-in: those stay the account holder's.
 */
export function AdminProfileForm({ user, readOnly }: { user: User; readOnly: boolean }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const { identity } = useGetIdentity();
  // Another admin's sign-in address is theirs to change (the server refuses it too).
  const ownAddress = !user.is_admin || String(identity?.id) === String(user.id);
  const record = useMemo(
    () =>
      Object.fromEntries(
        ADMIN_EDITABLE.map((name) => [name, user[name as keyof User] ?? '']),
      ) as Record<string, unknown>,
    [user],
  );
  const save = async (values: Record<string, unknown>) => {
    const changed = changedFields(values, record);
    if (Object.keys(changed).length === 0) return user;
    const saved = await dataProvider.action<User>('admin-accounts', 'updateUser', {
      body: { id: user.id, ...changed },
    });
    await queryClient.invalidateQueries({ queryKey: ['users', 'getOne'] });
    return saved;
  };
  const onSubmit = useSubmitHandler<Record<string, unknown>>(ADMIN_EDITABLE, save, 'Profile saved');

  return (
    <SectionCard
      id="admin-profile-details"
      title="Profile details"
      subtitle={
        readOnly
          ? 'Only admins change an account.'
          : 'Changes are written to the user’s activity log with your name. The password and two-factor sign-in stay theirs.'
      }
      icon={BadgeOutlined}
    >
      <Form record={record} resolver={resolver} onSubmit={onSubmit} noValidate>
        <ProfileFields
          timeZone={user.TimeZone}
          readOnly={readOnly}
          email={{
            disabled: !ownAddress,
            helperText: ownAddress
              ? 'The address they sign in with'
              : 'Only that admin changes their own sign-in address',
          }}
        >
          {user.is_admin ? null : (
            <BooleanInput
              source="is_admin_staff"
              label="Admin staff"
              helperText="Staff see the admin area's Users and Servers, and change nothing."
              disabled={readOnly}
            />
          )}
        </ProfileFields>
        {readOnly ? null : (
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Box>
              <SaveButton label="Save changes" />
            </Box>
          </Stack>
        )}
      </Form>
    </SectionCard>
  );
}
