import { Chip } from '@mui/material';
import type { User } from '../../resources/user-profile';
import { formatDate } from '../../src/generic/format';
import { planName } from '../../src/generic/plans';
import { ProfileCard, SummaryRow } from '../../src/generic/ProfileCard';
import { AccountActions } from '../../src/resources/admin-users/AccountActions';

function roleOf(user: User): string {
  if (user.is_admin) return 'Admin';
  if (user.is_admin_staff) return 'Admin staff';
  return 'User';
}

/** Who the account is: photo, name, address, plan, role, state; an admin's actions on it. */
export function ProfileSummaryCard({
  user,
  photo,
  isAdmin,
}: {
  user: User;
  photo: string | null;
  isAdmin: boolean;
}) {
  return (
    <ProfileCard
      label="Account"
      user={user}
      photo={photo}
      avatarSize="medium"
      actions={isAdmin ? <AccountActions record={user} /> : null}
    >
      <SummaryRow label="Plan">{planName(user.plan_id, user.is_admin)}</SummaryRow>
      <SummaryRow label="Role">{roleOf(user)}</SummaryRow>
      <SummaryRow label="State">
        {user.disabled ? (
          <Chip size="small" color="error" variant="outlined" label="Disabled" />
        ) : user.confirmed ? (
          <Chip size="small" color="success" variant="outlined" label="Active" />
        ) : (
          <Chip size="small" color="warning" variant="outlined" label="Not confirmed" />
        )}
      </SummaryRow>
      <SummaryRow label="Two-factor sign-in">{user.two_factor ? 'On' : 'Off'}</SummaryRow>
      <SummaryRow label="Member since">{formatDate(user.created_at)}</SummaryRow>
      <SummaryRow label="Account ID">#{user.id}</SummaryRow>
    </ProfileCard>
  );
}
