/** The firewall page's status texts: each says what is true (a firewall that is off is not offline). */

/** Why the deny list is not read, or null when it is. */
export function denyListUnread(online: boolean, running: boolean): string | null {
  if (!online) return 'The server is offline: its deny list cannot be read.';
  if (!running) return 'The firewall is off: the server denies nothing until it is turned on.';
  return null;
}
