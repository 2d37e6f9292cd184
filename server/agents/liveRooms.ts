import type { FastifyBaseLogger } from 'fastify';
import type { Namespace } from 'socket.io';
import { EVENTS, type Report } from '../../resources/agent/protocol';
import type { Sessions } from '../auth/sessions';
import type { Caller } from '../http/caller';
import { userRoom } from '../tasks/taskPush';
import { liveRoom, sessionRoom } from './rooms';

/** The merged live info a browser receives. */
export interface LiveMessage extends Report {
  uuid: string;
  connected: boolean;
}

/**
 * The browsers' side of the live info: which sockets may stay (their sign-in session, their
 * sight of a server) and the server rooms the live messages go to.
 */
export class LiveRooms {
  constructor(
    private readonly browsers: Namespace,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Ties each browser socket to the sign-in session of its token: the socket joins that
   * session's room, and revoking the session (logout, password change or reset, a disabled or
   * deleted account) disconnects the room at once, on every panel (through the adapter). A
   * socket that got past the handshake just before its session was revoked finds out here.
   */
  followSessions(sessions: Sessions) {
    sessions.onRevoke((ids) => this.browsers.in(ids.map(sessionRoom)).disconnectSockets(true));
    this.browsers.on('connection', (socket) => {
      const caller = (socket.data as { caller?: Caller } | undefined)?.caller;
      const sessionId = caller?.sessionId;
      if (!caller || !sessionId) return void socket.disconnect(true);
      void (async () => {
        // The user's room too (their tasks' progress, server/tasks/taskPush.ts): joined at
        // once, so no step goes by between the socket's connect and its join.
        await socket.join([sessionRoom(sessionId), userRoom(caller.id)]);
        if (await sessions.isRevoked(sessionId)) socket.disconnect(true);
      })().catch((err: unknown) => {
        this.log.error({ err }, 'live socket session check failed');
        socket.disconnect(true);
      });
    });
  }

  /**
   * Browsers following a server that their caller may no longer see (a member removed from a
   * team, a team deleted, a server unshared) leave its room: `stillSees` decides per caller.
   */
  async evict(serverUuid: string, stillSees: (caller: Caller) => Promise<boolean>) {
    const room = liveRoom(serverUuid);
    for (const socket of await this.browsers.in(room).fetchSockets()) {
      const caller = (socket.data as { caller?: Caller } | undefined)?.caller;
      if (!caller || !(await stillSees(caller))) socket.leave(room);
    }
  }

  /** One server's live message, to the browsers in its room. */
  send(message: LiveMessage) {
    this.browsers.to(liveRoom(message.uuid)).emit(EVENTS.live, message);
  }
}
