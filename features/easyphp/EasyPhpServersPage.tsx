import { ServerPickerPage } from '../../src/generic/ServerPickerPage';
import { easyPhpPaths } from './links';

/** /easyphp (main sidebar): the user's servers, each leading to its PHP extensions. */
export default function EasyPhpServersPage() {
  return (
    <ServerPickerPage
      title="EasyPHP"
      description="PHP extensions are switched per server and PHP version: choose the server."
      emptyText="Connect a server first; its PHP extensions are switched from here."
      to={easyPhpPaths.server}
    />
  );
}
