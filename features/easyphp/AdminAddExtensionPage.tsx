import { GenericCreate } from '../../src/generic/GenericCreate';
import { easyPhpPaths } from './links';
import { phpExtensions } from './resource';

/** /admin/add-extension: a new extension in the catalogue. */
export default function AdminAddExtensionPage() {
  return (
    <GenericCreate
      resource={phpExtensions}
      title="Add a PHP extension"
      description="Users see it on their servers' EasyPHP page; they switch it where the server has its package."
      noun="The extension"
      saveLabel="Add extension"
      cancelTo={easyPhpPaths.admin}
      redirectTo={() => easyPhpPaths.admin}
      failedTo={easyPhpPaths.admin}
    />
  );
}
