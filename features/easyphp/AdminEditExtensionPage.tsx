import { GenericEdit } from '../../src/generic/GenericEdit';
import { easyPhpPaths } from './links';
import { phpExtensions } from './resource';

/** /admin/edit-extension/{id}: change an extension of the catalogue. */
export default function AdminEditExtensionPage() {
  return (
    <GenericEdit
      resource={phpExtensions}
      title="Edit PHP extension"
      noun="The extension"
      cancelTo={easyPhpPaths.admin}
      redirectTo={() => easyPhpPaths.admin}
      failedTo={easyPhpPaths.admin}
      missingTo={easyPhpPaths.admin}
    />
  );
}
