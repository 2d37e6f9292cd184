import { InstallPage } from '../installers/pagesApi';
import { nextcloudInstaller } from './resource';

/** /install-nextcloud/{id}: Nextcloud on a new web app of the server. */
export default function InstallNextcloudPage() {
  return (
    <InstallPage
      resource={nextcloudInstaller}
      label="Nextcloud"
      description="Files, calendars and contacts on a new web app with its own database."
    />
  );
}
