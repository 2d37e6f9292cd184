import { Grid } from '@mui/material';
import type { PageSlots } from '../../src/shell/slots';
import { ApiKeyCard } from './ApiKeyCard';
import { PasswordCard } from './PasswordCard';
import { TwoFactorCard } from './TwoFactorCard';

/** The profile's security cards (the `profile.cards` slot of /my-profile), each a grid item. */
export default function ProfileSecurityCards({
  user,
  save,
  acting,
  refresh,
}: PageSlots['profile.cards']) {
  return (
    <>
      <Grid size={{ xs: 12, lg: 6 }}>
        <PasswordCard save={save} acting={acting} />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TwoFactorCard user={user} save={save} acting={acting} />
      </Grid>
      <Grid size={12}>
        <ApiKeyCard user={user} acting={acting} refresh={refresh} />
      </Grid>
    </>
  );
}
