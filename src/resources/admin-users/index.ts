import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { adminUsers } from '../../../resources/admin-users';
import { resourceUi } from '../../generic/resourceUi';
import { AdminUserList } from './AdminUserList';

/** Users of the admin area (spec: `GET admin/users`), at /admin/users. */
export default resourceUi(adminUsers, { icon: PeopleOutline, pages: { list: AdminUserList } });
