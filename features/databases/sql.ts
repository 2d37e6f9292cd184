/**
 * MariaDB names and statements as the agent writes them: pure helpers shared by the
 * declaration (its checks), the agent (the SQL) and the tests. Names come from allowlists, so
 * quoting never meets a quote; a database named in a GRANT is a pattern, where `_` and `%` are
 * wildcards and must be escaped (an unescaped `my_db` grant also opens `myXdb`).
 */

export const DB_NAME = /^[A-Za-z0-9_]{1,64}$/;
export const DB_USER = /^[A-Za-z0-9_]{1,32}$/;
export const COLLATION = /^[a-z0-9]+_[a-z0-9_]+$/;
/** MariaDB's mysql_native_password hash: `*` and 40 upper-case hex digits. */
export const NATIVE_HASH = /^\*[0-9A-F]{40}$/;

/** Names MariaDB keeps for itself. */
export const RESERVED_DATABASES = ['mysql', 'information_schema', 'performance_schema', 'sys'];
export const RESERVED_USERS = ['root', 'mysql', 'mariadb.sys', 'debian-sys-maint'];
/**
 * The phpMyAdmin sign-in's temporary accounts (features/phpmyadmin): dropped at the expiry in
 * their names, so no user of the panel may take such a name.
 */
export const TEMP_USER_PREFIX = 'sdsso_';

function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`Refused ${what}`);
}

/** `name` as an identifier: `name`. */
export function ident(name: string): string {
  must(DB_NAME.test(name), `database name ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

/** The database as a GRANT pattern: `my\_db`.* reaches my_db only. */
export function grantTarget(database: string): string {
  must(DB_NAME.test(database), `database name ${JSON.stringify(database)}`);
  return `\`${database.replace(/[_%]/g, (c) => `\\${c}`)}\`.*`;
}

/** The panel's users connect from the server itself: 'name'@'localhost'. */
export function account(user: string): string {
  must(DB_USER.test(user), `user name ${JSON.stringify(user)}`);
  return `'${user}'@'localhost'`;
}

/** A string literal of a checked value (a collation, a hash, a name for a WHERE). */
export function literal(value: string, pattern: RegExp): string {
  must(pattern.test(value), `value ${JSON.stringify(value)}`);
  return `'${value}'`;
}

/** The character set of a collation: the part before its first `_`. */
export const charsetOf = (collation: string) => collation.split('_')[0]!;

/** The grant pattern of a row of mysql.db back to the database name (`my\_db` -> `my_db`). */
export const unescapeGrant = (pattern: string) => pattern.replace(/\\([_%])/g, '$1');
