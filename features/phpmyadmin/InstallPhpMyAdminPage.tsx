import { InstallPage } from '../installers/pagesApi';
import { phpmyadminInstaller } from './resource';

/** /install-phpmyadmin/{id}: phpMyAdmin on a new web app of the server. */
export default function InstallPhpMyAdminPage() {
  return (
    <InstallPage
      resource={phpmyadminInstaller}
      label="phpMyAdmin"
      description="The server's databases in the browser: sign in with a database user, or from the Database users page in one click."
    />
  );
}
