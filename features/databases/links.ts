/** The spec's addresses of the database pages (server layout, the server id in the path). */
export const dbPaths = {
  list: (sid: number | string) => `/database-list/${sid}`,
  users: (sid: number | string) => `/database-users/${sid}`,
  /** Create a database; with `?db=` change one (the spec names only the server). */
  create: (sid: number | string) => `/mysql/${sid}`,
  edit: (sid: number | string, db: number | string) => `/mysql/${sid}?db=${db}`,
  /** Create a database user; with `?user=` change one (the spec's /mysqlold is an older address). */
  createUser: (sid: number | string) => `/database-user/${sid}`,
  editUser: (sid: number | string, user: number | string) => `/database-user/${sid}?user=${user}`,
  /** The main sidebar's page: every database of the user's servers. */
  all: '/database-list',
};

/** A positive id from the query string (`?db=7`), or null. */
export function queryId(search: string, name: string): number | null {
  const value = Number(new URLSearchParams(search).get(name));
  return Number.isInteger(value) && value > 0 ? value : null;
}
