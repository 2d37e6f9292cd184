import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { accntactivity } from '../../../resources/accntactivity';
import { resourceUi } from '../../generic/resourceUi';
import { activityListOptions } from './listOptions';

/** Account activity log (spec: `GET accntactivity/users/{uid}`), at /account-activity-log. */
export default resourceUi(accntactivity, { icon: HistoryOutlined, list: activityListOptions });
