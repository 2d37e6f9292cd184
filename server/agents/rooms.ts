/** socket.io rooms: one per server for its agent, one per server uuid for browsers. */
export const agentRoom = (serverId: number) => `agent:${serverId}`;
export const liveRoom = (serverUuid: string) => `server:${serverUuid}`;
