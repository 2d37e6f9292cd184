import { SERVER_PENDING_PREFIX, type Server } from '../../../resources/servers';

export interface ShownName {
  /** What the user knows the server as: the name they chose while it is pending. */
  name: string;
  /** The server's own `cs-` name while the chosen one is shown instead; otherwise null. */
  id: string | null;
}

/**
 * The name to show for a server. Until its agent connects a server keeps its `cs-` name and
 * the name the user chose waits in `pending_name`; that chosen name is shown, with the `cs-`
 * name beside it. A blank pending name never replaces the real one (the remove page confirms
 * by the shown name, so it must never be empty).
 */
export function shownName(server: Pick<Server, 'name' | 'pending_name'>): ShownName {
  const chosen = server.pending_name?.trim();
  if (chosen && server.name.startsWith(SERVER_PENDING_PREFIX) && chosen !== server.name) {
    return { name: chosen, id: server.name };
  }
  return { name: server.name, id: null };
}
