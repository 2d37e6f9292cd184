import { InstallPage } from '../installers/pagesApi';
import { roundcubeInstaller } from './resource';

/** /install-roundcube/{id}: Roundcube webmail on a new web app of the server. */
export default function InstallRoundcubePage() {
  return (
    <InstallPage
      resource={roundcubeInstaller}
      label="Roundcube"
      description="Webmail on a new web app with its own database, signing in to the server's mail."
    />
  );
}
