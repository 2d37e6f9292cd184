import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  EVENTS,
  RECONNECT_DELAY_MS,
  REPORT_INTERVAL_MS,
} from '../resources/agent/protocol';
import type { AgentConfig } from './config';
import { serveOps } from './opServer';
import { dispatch } from './ops';
import { Reporter } from './report';
import { AGENT_VERSION } from './version';

export interface AgentLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Keeps one connection to the panel: reconnects forever, 1000 ms apart (also after the panel
 * refused the key, which socket.io does not retry by itself), reports every few seconds, and
 * answers ops.
 */
export function connectAgent(config: AgentConfig, log: AgentLog): { socket: Socket; stop(): void } {
  const socket = io(`${config.panel_url}${AGENT_NAMESPACE}`, {
    auth: { key: config.key, agent_version: AGENT_VERSION },
    transports: ['websocket'],
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MS,
    randomizationFactor: 0,
  });
  const reporter = new Reporter();
  let retry: NodeJS.Timeout | undefined;

  const report = async () => {
    if (!socket.connected) return;
    try {
      socket.emit(EVENTS.report, await reporter.take());
    } catch (error) {
      log.warn(`report failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(() => void report(), REPORT_INTERVAL_MS);

  socket.on('connect', () => {
    log.info(`connected to ${config.panel_url}`);
    void report();
  });
  socket.on('disconnect', (reason) => log.warn(`disconnected: ${reason}`));
  socket.on('connect_error', (error) => {
    log.warn(`cannot connect: ${error.message}`);
    // A refusal by the panel's middleware is final for socket.io; the spec says retry forever.
    if (!socket.active) {
      clearTimeout(retry);
      retry = setTimeout(() => socket.connect(), RECONNECT_DELAY_MS);
    }
  });
  socket.on(
    EVENTS.op,
    serveOps(
      () => socket,
      (request, progress) => dispatch(request, undefined, undefined, progress),
    ),
  );

  return {
    socket,
    stop() {
      clearInterval(timer);
      clearTimeout(retry);
      socket.disconnect();
    },
  };
}
