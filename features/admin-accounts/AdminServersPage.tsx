import DnsOutlined from '@mui/icons-material/DnsOutlined';
import type { RaRecord } from 'ra-core';
import { GenericList } from '../../src/generic/GenericList';
import { MonoText } from '../../src/generic/cells';
import { AdminStatusChip } from './AdminStatusChip';
import { OwnerCell } from './OwnerCell';
import { adminServers } from './resource';
import { ADMIN_SERVER_STATUS_LABELS, type AdminServerStatus } from './schemas';

/** Where a server's row leads: its owner's profile in the admin area. */
export const ownerProfile = (record: RaRecord) => `/admin/user-profile/${String(record.user_id)}`;

/**
 * /admin/servers: every server of the panel with its owner, for admins and admin staff; filter
 * by owner, state, name or address. A row opens the owner's profile.
 */
export default function AdminServersPage() {
  return (
    <GenericList
      resource={adminServers}
      description="Every server on this panel and who owns it. Open a row to see its owner."
      searchPlaceholder="Search name or IP"
      filterFields={['q', 'owner', 'status']}
      filterChoiceLabels={{ status: ADMIN_SERVER_STATUS_LABELS }}
      filterLabels={{ owner: 'Owner (email or name)' }}
      render={{
        owner_email: (record) => <OwnerCell record={record} />,
        status: (record) => <AdminStatusChip status={record.status as AdminServerStatus} />,
        ip4: (record) => (record.ip4 ? <MonoText>{record.ip4}</MonoText> : '—'),
        os_version: (record) => (record.os_version ? String(record.os_version) : '—'),
      }}
      rowLink={ownerProfile}
      empty={{ icon: DnsOutlined, title: 'No servers yet' }}
    />
  );
}
