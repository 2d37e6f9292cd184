import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import type { ResourceUiOptions } from '../../generic/resourceUi';
import { MonoText } from '../../generic/cells';
import { ActorCell } from './ActorCell';

/** The generic list, told how to read the activity: who did it, and where from. */
export const activityListOptions: ResourceUiOptions['list'] = {
  description:
    'Changes made to your account: profile, password, two-factor sign-in and API keys, with the address they came from.',
  labels: { created_at: 'Time', message: 'Activity', who: 'Who' },
  searchPlaceholder: 'Search activity',
  render: {
    who: (record) => <ActorCell record={record} />,
    ip: (record) => <MonoText>{record.ip}</MonoText>,
  },
  empty: {
    icon: HistoryOutlined,
    title: 'Nothing has happened yet',
    text: 'Changes to your account will be recorded here.',
  },
};
