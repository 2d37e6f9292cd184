/**
 * `mariadb-dump`'s flags for a dump of one live database: consistent without locking the site's
 * tables, with its routines, triggers and events, binary columns as hex, loadable into a
 * database of any name (no `--databases`). Clones and backups both dump this way.
 */
export const DUMP_FLAGS = [
  '--single-transaction',
  '--quick',
  '--routines',
  '--triggers',
  '--events',
  '--hex-blob',
  '--default-character-set=utf8mb4',
  '--max-allowed-packet=1G',
] as const;
