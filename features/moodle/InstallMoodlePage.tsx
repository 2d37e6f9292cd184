import { InstallPage } from '../installers/pagesApi';
import { moodleInstaller } from './resource';

/** /install-moodle/{id}: Moodle on a new web app of the server. */
export default function InstallMoodlePage() {
  return (
    <InstallPage
      resource={moodleInstaller}
      label="Moodle"
      description="A Moodle learning site on a new web app with its own database."
    />
  );
}
