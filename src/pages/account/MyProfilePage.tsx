import { Alert, Box, Grid, Skeleton } from '@mui/material';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import type { User, UserUpdate } from '../../../resources/user-profile';
import { useStackdeckAuth } from '../../hooks';
import { Slot } from '../../shell/slots';
import { DeleteAccountCard } from './DeleteAccountCard';
import { PhotoCard } from './PhotoCard';
import { ProfileDetailsCard } from './ProfileDetailsCard';
import { useProfile } from './useProfile';

declare module '../../shell/slots' {
  interface PageSlots {
    /**
     * The profile's cards between the details and the account's deletion, each a grid item
     * (features/account-security: password, two-factor sign-in, API keys).
     */
    'profile.cards': {
      user: User;
      /** `PUT users/{uid}` with the card's own fields (useProfile). */
      save: (data: UserUpdate) => Promise<User>;
      /** An admin acting as the user is at the keyboard. */
      acting: boolean;
      refresh: () => void;
    };
  }
}

/**
 * /my-profile: details, photo, what other features add (password, two-factor sign-in, API keys:
 * features/account-security), account deletion.
 */
export default function MyProfilePage() {
  const { user, isPending, error, save, refetch } = useProfile();
  const acting = useStackdeckAuth().isActing();

  return (
    <Box>
      <PageHeader
        title="My Profile"
        description="Your details, how you sign in, and access for scripts."
      />
      {error ? (
        <Alert severity="error">{errorMessage(error, 'Your profile could not be loaded.')}</Alert>
      ) : isPending || !user ? (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 4 }}>
            <Skeleton variant="rounded" height={360} />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <Skeleton variant="rounded" height={520} />
          </Grid>
        </Grid>
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 4 }}>
            <PhotoCard user={user} />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <ProfileDetailsCard user={user} save={save} />
          </Grid>
          <Slot id="profile.cards" props={{ user, save, acting, refresh: () => void refetch() }} />
          <Grid size={12}>
            <DeleteAccountCard user={user} acting={acting} />
          </Grid>
        </Grid>
      )}
    </Box>
  );
}
