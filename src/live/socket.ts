import { type Socket, io } from 'socket.io-client';
import { BROWSER_NAMESPACE, EVENTS, type Report } from '../../resources/agent/protocol';
import { sessions } from '../providers';

/** What the panel pushes for a server: its merged live report, its uuid, whether it is online. */
export interface LiveMessage extends Report {
  uuid: string;
  connected: boolean;
}

/** A server's live state as the browser knows it. */
export interface ServerLiveState {
  /** The agent is connected; null until the panel has answered the subscription. */
  connected: boolean | null;
  /** The latest report (kept while the server is offline); null before the first one. */
  report: Report | null;
  /** The subscription was refused (unknown server, or not one the user may see). */
  error: string | null;
}

const INITIAL: ServerLiveState = { connected: null, report: null, error: null };
const RETRY_MS = 2000;

type Listener = () => void;

interface Entry {
  refs: number;
  state: ServerLiveState;
  listeners: Set<Listener>;
}

const entries = new Map<string, Entry>();
const socketListeners = new Set<Listener>();
let socket: Socket | null = null;
let socketToken: string | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
/** Handlers of pushed events other than `live` (a task's progress...), by event name. */
const pushed = new Map<string, Set<(payload: unknown) => void>>();
/** Listeners that keep the socket wanted without following a server (listenLive). */
let holds = 0;

function attach(target: Socket, event: string) {
  target.on(event, (payload: unknown) => pushed.get(event)?.forEach((handler) => handler(payload)));
}

const stripReport = ({ uuid: _uuid, connected: _connected, ...report }: LiveMessage): Report =>
  report;

function setState(uuid: string, patch: Partial<ServerLiveState>) {
  const entry = entries.get(uuid);
  if (!entry) return;
  entry.state = { ...entry.state, ...patch };
  entry.listeners.forEach((listener) => listener());
}

interface SubscribeAck {
  ok: boolean;
  connected?: boolean;
  live?: Report | null;
  error?: string;
}

function subscribeOnSocket(uuid: string) {
  if (!socket?.connected) return;
  socket.emit(EVENTS.subscribe, { uuid }, (ack: SubscribeAck) => {
    if (!entries.has(uuid)) return;
    if (!ack?.ok) {
      setState(uuid, { error: ack?.error ?? 'Not found' });
      return;
    }
    setState(uuid, {
      error: null,
      connected: Boolean(ack.connected),
      report: ack.live ?? entries.get(uuid)?.state.report ?? null,
    });
  });
}

function closeSocket() {
  if (retry) clearTimeout(retry);
  retry = null;
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  socketToken = null;
  socketListeners.forEach((listener) => listener());
}

/**
 * The one `/live` connection of this tab, opened on first use with the session's token.
 * socket.io reconnects on its own after a network loss; a refused handshake (expired or
 * changed token) is retried here with the token of the moment. Every subscription is sent
 * again on each (re)connect.
 */
function ensureSocket(): Socket | null {
  const token = sessions.get()?.token ?? null;
  if (!token) {
    closeSocket();
    return null;
  }
  if (socket && socketToken === token) return socket;
  closeSocket();
  socketToken = token;
  const created = io(BROWSER_NAMESPACE, {
    // Read at every (re)connect: an admin acting as a user, or a new sign-in, brings its own.
    auth: (cb) => cb({ token: sessions.get()?.token ?? '' }),
    reconnection: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    transports: ['websocket', 'polling'],
  });
  created.on('connect', () => {
    for (const uuid of entries.keys()) subscribeOnSocket(uuid);
    socketListeners.forEach((listener) => listener());
  });
  created.on('disconnect', () => socketListeners.forEach((listener) => listener()));
  created.on('connect_error', () => {
    // A middleware refusal leaves the socket inactive: socket.io does not retry it by itself.
    if (created.active || retry) return;
    retry = setTimeout(() => {
      retry = null;
      if (socket === created && sessions.get()) created.connect();
    }, RETRY_MS);
  });
  for (const event of pushed.keys()) attach(created, event);
  created.on(EVENTS.live, (message: LiveMessage) => {
    if (!message || typeof message.uuid !== 'string') return;
    setState(message.uuid, { connected: message.connected, report: stripReport(message) });
  });
  socket = created;
  return created;
}

// Signing out (or acting as another user) ends the connection; the next use opens a new one.
sessions.subscribe(() => {
  if (socket && sessions.get()?.token !== socketToken) {
    closeSocket();
    if (entries.size > 0 || holds > 0) ensureSocket();
  }
});

/**
 * Follows one server's live reports. Several callers may follow the same server: it is
 * subscribed once and unsubscribed when the last one leaves. Returns the unsubscribe.
 */
export function followServer(uuid: string, listener: Listener): () => void {
  let entry = entries.get(uuid);
  if (!entry) {
    entry = { refs: 0, state: INITIAL, listeners: new Set() };
    entries.set(uuid, entry);
  }
  entry.refs += 1;
  entry.listeners.add(listener);
  const active = ensureSocket();
  if (entry.refs === 1 && active?.connected) subscribeOnSocket(uuid);
  const own = entry;
  return () => {
    own.listeners.delete(listener);
    own.refs -= 1;
    if (own.refs > 0) return;
    entries.delete(uuid);
    if (socket?.connected) socket.emit(EVENTS.unsubscribe, { uuid });
  };
}

/** The current state of a followed server (INITIAL when nobody follows it). */
export function serverLiveState(uuid: string): ServerLiveState {
  return entries.get(uuid)?.state ?? INITIAL;
}

/** Whether this tab's `/live` socket is connected right now. */
export function liveSocketConnected(): boolean {
  return socket?.connected ?? false;
}

export function onLiveSocketChange(listener: Listener): () => void {
  socketListeners.add(listener);
  return () => void socketListeners.delete(listener);
}

/**
 * Listens to an event the panel pushes to this user's sockets (EVENTS.task...), opening the
 * socket if need be; it is listened to again on every new connection. Returns the stop.
 */
export function listenLive(event: string, handler: (payload: unknown) => void): () => void {
  let handlers = pushed.get(event);
  if (!handlers) {
    handlers = new Set();
    pushed.set(event, handlers);
    if (socket) attach(socket, event);
  }
  // A wrapper of its own: the same handler listening twice is two listeners, stopped apart.
  const own = (payload: unknown) => handler(payload);
  handlers.add(own);
  holds += 1;
  ensureSocket();
  const set = handlers;
  return () => {
    if (set.delete(own)) holds -= 1;
  };
}

export const INITIAL_LIVE_STATE = INITIAL;
