import type { ReactNode } from 'react';
import { Avatar, Box, Chip, Divider, Stack, Typography } from '@mui/material';
import type { User } from '../../resources/user-profile';
import { formatDate } from '../../src/generic/format';
import { planName } from '../../src/generic/plans';
import { AccountActions } from '../../src/resources/admin-users/AccountActions';

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase());
  return letters.join('') || '?';
}

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
    <Box
      component="section"
      aria-label="Account"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
    >
      <Stack spacing={2} sx={{ alignItems: 'center', p: 3, textAlign: 'center' }}>
        <Avatar
          src={photo ?? undefined}
          alt={photo ? `Photo of ${user.user_name}` : undefined}
          sx={{ width: 96, height: 96, fontSize: 34, bgcolor: 'primary.main' }}
        >
          {initials(user.user_name)}
        </Avatar>
        <Box sx={{ minWidth: 0, maxWidth: '100%' }}>
          <Typography variant="h6" component="p" noWrap>
            {user.user_name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email}
          </Typography>
        </Box>
        {isAdmin ? <AccountActions record={user} /> : null}
      </Stack>
      <Divider />
      <Stack spacing={1.5} sx={{ p: 3 }}>
        <Summary label="Plan">{planName(user.plan_id, user.is_admin)}</Summary>
        <Summary label="Role">{roleOf(user)}</Summary>
        <Summary label="State">
          {user.disabled ? (
            <Chip size="small" color="error" variant="outlined" label="Disabled" />
          ) : user.confirmed ? (
            <Chip size="small" color="success" variant="outlined" label="Active" />
          ) : (
            <Chip size="small" color="warning" variant="outlined" label="Not confirmed" />
          )}
        </Summary>
        <Summary label="Two-factor sign-in">{user.two_factor ? 'On' : 'Off'}</Summary>
        <Summary label="Member since">{formatDate(user.created_at)}</Summary>
        <Summary label="Account ID">#{user.id}</Summary>
      </Stack>
    </Box>
  );
}

function Summary({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontWeight: 500 }}>
        {children}
      </Typography>
    </Stack>
  );
}
