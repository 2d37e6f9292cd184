import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { GenericListBody } from '../../src/generic/GenericListBody';
import { MonoText } from '../../src/generic/cells';
import { SectionCard } from '../../src/generic/SectionCard';
import { AdminStatusChip } from './AdminStatusChip';
import { adminServers } from './resource';
import type { AdminServerStatus } from './schemas';

/** The servers the user owns (`GET admin/servers?user_id=`), with their state. */
export function UserServersCard({ userId }: { userId: number }) {
  return (
    <SectionCard id="admin-profile-servers" title="Servers" icon={DnsOutlined}>
      <GenericListBody
        resource={adminServers}
        label="The user's servers"
        columns={['name', 'status', 'ip4', 'os_version', 'created_at']}
        filter={{ user_id: userId }}
        filterFields={[]}
        perPage={10}
        render={{
          status: (record) => <AdminStatusChip status={record.status as AdminServerStatus} />,
          ip4: (record) => (record.ip4 ? <MonoText>{record.ip4}</MonoText> : '—'),
          os_version: (record) => (record.os_version ? String(record.os_version) : '—'),
        }}
        empty={{ icon: DnsOutlined, title: 'No servers', text: 'This user owns no server.' }}
      />
    </SectionCard>
  );
}
