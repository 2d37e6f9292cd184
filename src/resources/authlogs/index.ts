import LoginOutlined from '@mui/icons-material/LoginOutlined';
import { authlogs } from '../../../resources/authlogs';
import { resourceUi } from '../../generic/resourceUi';
import { AuthlogList } from './AuthlogList';

/** Login activity (spec: `GET authlogs/users/{id}`), shown at /login-activity. */
export default resourceUi(authlogs, { icon: LoginOutlined, pages: { list: AuthlogList } });
