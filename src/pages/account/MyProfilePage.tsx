import { Alert, Box, Grid, Skeleton } from '@mui/material';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckAuth } from '../../hooks';
import { ApiKeyCard } from './ApiKeyCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { PasswordCard } from './PasswordCard';
import { PhotoCard } from './PhotoCard';
import { ProfileDetailsCard } from './ProfileDetailsCard';
import { TwoFactorCard } from './TwoFactorCard';
import { useProfile } from './useProfile';

/** /my-profile: details, photo, password, two-factor sign-in, API keys, account deletion. */
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
          <Grid size={{ xs: 12, lg: 6 }}>
            <PasswordCard save={save} acting={acting} />
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <TwoFactorCard user={user} save={save} acting={acting} />
          </Grid>
          <Grid size={12}>
            <ApiKeyCard user={user} acting={acting} refresh={refetch} />
          </Grid>
          <Grid size={12}>
            <DeleteAccountCard user={user} acting={acting} />
          </Grid>
        </Grid>
      )}
    </Box>
  );
}
