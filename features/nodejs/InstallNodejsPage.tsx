import { InstallPage } from '../installers/InstallPage';
import { nodejsInstaller } from './resource';

/** /install-nodejs/{id}: a Node.js app from git on a new web app of the server. */
export default function InstallNodejsPage() {
  return (
    <InstallPage
      resource={nodejsInstaller}
      label="Node.js"
      description="A new web app whose code comes from a git repository, run by supervisor on a port of its own behind nginx, and restarted when it stops."
    />
  );
}
