import type { ReactNode } from 'react';
import { Avatar, Box, Divider, Stack, Typography } from '@mui/material';

/** Up to two capitals of a name, for an avatar without a photo. */
export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase());
  return letters.join('') || '?';
}

const SIZES = {
  large: { width: 112, height: 112, fontSize: 40 },
  medium: { width: 96, height: 96, fontSize: 34 },
  small: { width: 32, height: 32, fontSize: 14 },
} as const;

/**
 * A user's photo, or their initials when they have none; named only when it is a photo.
 * `beside` a name that is written out, the initials are hidden from screen readers.
 */
export function UserAvatar({
  name,
  photo,
  size,
  beside = false,
}: {
  name: string;
  photo: string | null | undefined;
  size: keyof typeof SIZES;
  beside?: boolean;
}) {
  return (
    <Avatar
      src={photo ?? undefined}
      alt={photo ? `Photo of ${name}` : undefined}
      aria-hidden={beside && !photo ? true : undefined}
      sx={{ ...SIZES[size], bgcolor: 'primary.main' }}
    >
      {initials(name)}
    </Avatar>
  );
}

/**
 * Who an account is: its photo, name and address, what the page puts under them (the holder's
 * photo buttons, an admin's actions), then lines of facts (`SummaryRow`). The holder's profile
 * and the admin's view of an account both show it.
 */
export function ProfileCard({
  label,
  user,
  photo,
  avatarSize,
  actions,
  children,
}: {
  /** The region's accessible name. */
  label: string;
  user: { user_name: string; email: string };
  photo: string | null | undefined;
  avatarSize: 'large' | 'medium';
  actions?: ReactNode;
  /** The facts below the divider. */
  children: ReactNode;
}) {
  return (
    <Box
      component="section"
      aria-label={label}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
    >
      <Stack spacing={2} sx={{ alignItems: 'center', p: 3, textAlign: 'center' }}>
        <UserAvatar name={user.user_name} photo={photo} size={avatarSize} />
        <Box sx={{ minWidth: 0, maxWidth: '100%' }}>
          <Typography variant="h6" component="p" noWrap>
            {user.user_name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email}
          </Typography>
        </Box>
        {actions}
      </Stack>
      <Divider />
      <Stack spacing={1.5} sx={{ p: 3 }}>
        {children}
      </Stack>
    </Box>
  );
}

/** One fact of a ProfileCard: its label left, its value right. */
export function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
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
