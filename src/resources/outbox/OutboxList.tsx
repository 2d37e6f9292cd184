import MailOutline from '@mui/icons-material/MailOutline';
import { outbox } from '../../../resources/outbox';
import { GenericList } from '../../generic/GenericList';
import { MailStatus } from './MailStatus';

/** /admin/outbox: every mail the panel sent or queued, newest first. */
export function OutboxList() {
  return (
    <GenericList
      resource={outbox}
      description="Every mail the panel sent. Codes and the links that carry them show as ••••••: only the recipient reads them. Without SMTP configured nothing leaves the panel; confirm new users under Users."
      columns={['created_at', 'to', 'subject', 'sent_at']}
      labels={{ created_at: 'Time', to: 'To', sent_at: 'Status' }}
      searchPlaceholder="Search recipient or subject"
      render={{ sent_at: (record) => <MailStatus record={record} /> }}
      rowLink={(record) => `/admin/outbox/${String(record.id)}`}
      empty={{
        icon: MailOutline,
        title: 'No mail yet',
        text: 'Mail sent by the panel will be listed here.',
      }}
    />
  );
}
