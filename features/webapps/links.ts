/** The spec's addresses of the web-app pages (server pages: the server id; app pages: both). */
export const appPaths = {
  list: (sid: number | string) => `/web-applications/${sid}`,
  none: (sid: number | string) => `/no-webapplications/${sid}`,
  noDomains: (sid: number | string) => `/no-domains/${sid}`,
  create: (sid: number | string) => `/create-web-app/${sid}`,
  /** A new system user and its first app. */
  account: (sid: number | string) => `/create-account/${sid}`,
  summary: (sid: number | string, app: number | string) => `/account-summary/${sid}/${app}`,
  subdomains: (sid: number | string, app: number | string) => `/sub-domains/${sid}/${app}`,
};
