import { GenericEdit } from '../../src/generic/GenericEdit';
import { releasePaths } from './links';
import { appReleases } from './resource';
import { RELEASE_CHOICES } from './urls';

/** /admin/edit-app-release/{id}: change a pinned release. */
export default function AdminEditAppReleasePage() {
  return (
    <GenericEdit
      resource={appReleases}
      title="Edit app release"
      noun="The release"
      choiceLabels={RELEASE_CHOICES}
      cancelTo={releasePaths.admin}
      redirectTo={() => releasePaths.admin}
      failedTo={releasePaths.admin}
      missingTo={releasePaths.admin}
    />
  );
}
