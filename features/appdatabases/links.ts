/** The spec's addresses of an app's database pages (`/:serverId/:webAppId`). */
export const appDbPaths = {
  databases: (sid: number | string, app: number | string) => `/app-database-list/${sid}/${app}`,
  users: (sid: number | string, app: number | string) => `/app-database-users/${sid}/${app}`,
};
