import { InstallPage } from '../installers/pagesApi';
import { wordpressInstaller } from './resource';

/** /install-wordpress/{id}: WordPress on a new web app of the server. */
export default function InstallWordPressPage() {
  return (
    <InstallPage
      resource={wordpressInstaller}
      label="WordPress"
      description="A new web app with its own database, WordPress installed and signed in as you choose."
    />
  );
}
