import { AppDbList } from './AppDbList';
import { appDbPaths } from './links';
import { webstackdbuser } from './resource';

/** /app-database-users/{serverId}/{webAppId}: the app's database users. */
export default function AppDbUsersPage() {
  return (
    <AppDbList
      resource={webstackdbuser}
      noun="database user"
      title="App database users"
      here={appDbPaths.users}
      other={{ label: 'Databases', to: appDbPaths.databases }}
    />
  );
}
