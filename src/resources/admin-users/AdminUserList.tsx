import { Box, Typography } from '@mui/material';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { usePermissions } from 'ra-core';
import type { Role } from '../../../resources/access';
import { adminUsers } from '../../../resources/admin-users';
import { MonoText } from '../../generic/cells';
import type { ExtraColumn } from '../../generic/GenericList';
import { GenericList } from '../../generic/GenericList';
import { planName } from '../../generic/plans';
import { AccountActions } from './AccountActions';
import { RoleCell } from './RoleCell';
import { UserNameCell } from './UserNameCell';

/** Admins only: confirm, send a reset mail, act as (never as another admin), disable or enable. */
const actionsColumn: ExtraColumn = {
  key: 'act-as',
  label: 'Actions',
  // A row opens the user's profile; its buttons and their dialogs (portals) do not.
  render: (record) => (
    <Box onClick={(event) => event.stopPropagation()}>
      <AccountActions record={record} />
    </Box>
  ),
};

/** /admin/users: every account, for admins and admin staff; a row opens the user's profile. */
export function AdminUserList() {
  const { permissions } = usePermissions<Role>();
  return (
    <GenericList
      resource={adminUsers}
      description="Every account on this panel. Search by email or name."
      searchPlaceholder="Search users"
      labels={{ user_name: 'Name', plan_id: 'Plan', is_admin: 'Role', created_at: 'Created' }}
      render={{
        id: (record) => <MonoText>{record.id}</MonoText>,
        // The page's photos come in one `admin/user-images` call, not one a row.
        user_name: (record) => <UserNameCell record={record} />,
        plan_id: (record) => (
          <Typography variant="body2">{planName(Number(record.plan_id))}</Typography>
        ),
        is_admin: (record) => <RoleCell record={record} />,
      }}
      extraColumns={permissions?.isAdmin ? [actionsColumn] : []}
      rowLink={(record) => `/admin/user-profile/${String(record.id)}`}
      empty={{ icon: PeopleOutline, title: 'No users yet' }}
    />
  );
}
