import { Typography } from '@mui/material';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { usePermissions } from 'ra-core';
import type { Role } from '../../../resources/access';
import { adminUsers } from '../../../resources/admin-users';
import { MonoText } from '../../generic/cells';
import type { ExtraColumn } from '../../generic/GenericList';
import { GenericList } from '../../generic/GenericList';
import { planName } from '../../generic/plans';
import { ActAsButton } from './ActAsButton';
import { RoleCell } from './RoleCell';

/** Only admins may act as someone, and never as another admin. */
const actAsColumn: ExtraColumn = {
  key: 'act-as',
  label: 'Actions',
  render: (record) => (record.is_admin ? null : <ActAsButton record={record} />),
};

/** /admin/users: every account, for admins and admin staff. */
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
        plan_id: (record) => (
          <Typography variant="body2">{planName(Number(record.plan_id))}</Typography>
        ),
        is_admin: (record) => <RoleCell record={record} />,
      }}
      extraColumns={permissions?.isAdmin ? [actAsColumn] : []}
      empty={{ icon: PeopleOutline, title: 'No users yet' }}
    />
  );
}
