import MailOutline from '@mui/icons-material/MailOutline';
import { outbox } from '../../../resources/outbox';
import { resourceUi } from '../../generic/resourceUi';
import { OutboxList } from './OutboxList';
import { OutboxShow } from './OutboxShow';

/** The admin's view of sent mail (`admin/outbox`), at /admin/outbox and /admin/outbox/:id. */
export default resourceUi(outbox, {
  icon: MailOutline,
  pages: { list: OutboxList, show: OutboxShow },
});
