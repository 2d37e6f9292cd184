import { InstallPage } from '../installers/pagesApi';
import { joomlaInstaller } from './resource';

/** /install-joomla/{id}: Joomla on a new web app of the server. */
export default function InstallJoomlaPage() {
  return (
    <InstallPage
      resource={joomlaInstaller}
      label="Joomla"
      description="A Joomla site on a new web app with its own database."
    />
  );
}
