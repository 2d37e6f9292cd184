import type { RaRecord } from 'ra-core';
import { AppDbList } from './AppDbList';
import { appDbPaths } from './links';
import { webstackdb } from './resource';

/** /app-database-list/{serverId}/{webAppId}: the app's databases. */
export default function AppDatabasesPage() {
  return (
    <AppDbList
      resource={webstackdb}
      noun="database"
      title="App databases"
      here={appDbPaths.databases}
      other={{ label: 'Database users', to: appDbPaths.users }}
      render={{
        users: (db: RaRecord) =>
          (db.users as { name: string }[]).map((u) => u.name).join(', ') || 'None',
      }}
    />
  );
}
