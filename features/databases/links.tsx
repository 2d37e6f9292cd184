/** The spec's addresses of the database pages (server layout, the server id in the path). */
export const dbPaths = {
  list: (sid: number | string) => `/database-list/${sid}`,
  users: (sid: number | string) => `/database-users/${sid}`,
  /** Create a database. */
  create: (sid: number | string) => `/mysql/${sid}`,
  /** Create a database user (the spec's older page). */
  createUser: (sid: number | string) => `/mysqlold/${sid}`,
};
