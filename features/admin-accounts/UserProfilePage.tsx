import { Box, Button, Grid, Skeleton } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { usePermissions } from 'ra-core';
import { Link, useParams } from 'react-router-dom';
import type { Role } from '../../resources/access';
import type { User } from '../../resources/user-profile';
import { LoadError } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { Slot } from '../../src/shell/slots';
import { AdminProfileForm } from './AdminProfileForm';
import { CreditHistoryCard } from './CreditHistoryCard';
import { ProfileSummaryCard } from './ProfileSummaryCard';
import { UserBackupsCard } from './UserBackupsCard';
import { UserServersCard } from './UserServersCard';
import { useAdminProfile } from './useAdminProfile';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /**
     * The user's subscription and revenue on /admin/user-profile/{id}, each a full-width grid
     * item: billing fills it (`admin/user-subscription`, `admin/user-revenue-details`); until
     * then the page shows nothing there.
     */
    'admin.user-profile.billing': {
      user: User;
      /** Admin staff read; only admins change. */
      isAdmin: boolean;
    };
  }
}

const BACK = { to: '/admin/users', label: 'All users' };

/**
 * /admin/user-profile/{id}: an account as admins and admin staff see it: who it is, its details
 * (an admin changes them), its subscription and revenue (billing's, through the slot), servers,
 * backups (admins) and credit history.
 */
export default function UserProfilePage() {
  const id = Number(useParams().id);
  const { permissions } = usePermissions<Role>();
  const isAdmin = Boolean(permissions?.isAdmin);
  const { user, photo } = useAdminProfile(Number.isInteger(id) ? id : 0);

  return (
    <Box>
      <PageHeader
        title={user.data ? user.data.user_name : 'User profile'}
        description={user.data ? user.data.email : undefined}
        actions={
          <Button component={Link} to={BACK.to} startIcon={<ArrowBack />}>
            {BACK.label}
          </Button>
        }
      />
      {user.error || !(id > 0) ? (
        <LoadError
          error={user.error ?? { status: 404 }}
          what="user"
          back={BACK}
          onRetry={() => void user.refetch()}
        />
      ) : user.isPending || !user.data ? (
        <Skeleton variant="rounded" height={420} />
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 4 }}>
            <ProfileSummaryCard user={user.data} photo={photo} isAdmin={isAdmin} />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <AdminProfileForm user={user.data} readOnly={!isAdmin} />
          </Grid>
          <Slot id="admin.user-profile.billing" props={{ user: user.data, isAdmin }} />
          <Grid size={12}>
            <UserServersCard userId={user.data.id} />
          </Grid>
          {isAdmin ? (
            <Grid size={12}>
              <UserBackupsCard userId={user.data.id} />
            </Grid>
          ) : null}
          <Grid size={12}>
            <CreditHistoryCard userId={user.data.id} />
          </Grid>
        </Grid>
      )}
    </Box>
  );
}
