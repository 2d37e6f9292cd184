import { GenericCreate } from '../../src/generic/GenericCreate';
import { releasePaths } from './links';
import { appReleases } from './resource';
import { RELEASE_CHOICES } from './urls';

/** /admin/add-app-release: pin a release of an app. */
export default function AdminAddAppReleasePage() {
  return (
    <GenericCreate
      resource={appReleases}
      title="Add an app release"
      description="The installers download it from its official URL (or the mirror) and refuse it unless its SHA-256 is the one pinned here."
      noun="The release"
      saveLabel="Add release"
      choiceLabels={RELEASE_CHOICES}
      cancelTo={releasePaths.admin}
      redirectTo={() => releasePaths.admin}
      failedTo={releasePaths.admin}
    />
  );
}
