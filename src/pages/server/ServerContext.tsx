import { createContext, useContext } from 'react';
import type { Server } from '../../../resources/servers';
import type { ServerLive } from '../../live';

export interface ServerPageContext {
  /** The server id of the route. */
  sid: number;
  server: Server;
  live: ServerLive;
  /** The agent is connected (live when known, else the record's flag). */
  online: boolean;
  refetchServer: () => void;
}

const Context = createContext<ServerPageContext | null>(null);

export const ServerProvider = Context.Provider;

/** The server of the current server-level page (inside the web-app layout). */
export function useServerPage(): ServerPageContext {
  const value = useContext(Context);
  if (!value) throw new Error('useServerPage outside the server layout');
  return value;
}
