/**
 * socket.io rooms: one per server for its agent, one per server uuid for browsers, one per
 * sign-in session for the browser sockets it opened (closed when the session is revoked).
 */
export const agentRoom = (serverId: number) => `agent:${serverId}`;
export const liveRoom = (serverUuid: string) => `server:${serverUuid}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
