/** The spec's addresses of an app's SSL pages (`/:serverId/:webAppId`). */
export const sslPaths = {
  list: (sid: number | string, app: number | string) => `/ssl-certificates/${sid}/${app}`,
  install: (sid: number | string, app: number | string) => `/install-ssl/${sid}/${app}`,
  update: (sid: number | string, app: number | string) => `/update-certificate/${sid}/${app}`,
};
