/**
 * Pure-FTPd's init script answers as soon as the daemon is spawned, before it listens: a client
 * sent to the server right after the first account would be refused. The op waits (bounded)
 * until port 21 on this server accepts a connection.
 */
import net from 'node:net';
import { OpError } from '../../agent/lib/opError';

const FTP_PORT = 21;
/** Pure-FTPd listens within a fraction of a second; a loaded server gets a few seconds. */
const WAIT_MS = 10_000;
const EVERY_MS = 100;

/** One TCP connect to the address: true when it is accepted (the socket is closed at once). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls a connect to port 21 over IPv4 and IPv6 loopback until one is accepted. */
export async function waitForFtpListening(port = FTP_PORT, waitMs = WAIT_MS): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const [v4, v6] = await Promise.all([accepts('127.0.0.1', port), accepts('::1', port)]);
    if (v4 || v6) return;
    if (Date.now() >= until)
      throw new OpError(
        'reload_failed',
        `pure-ftpd was started but does not accept connections on port ${port} after ${waitMs / 1000} s`,
      );
    await new Promise((r) => setTimeout(r, EVERY_MS));
  }
}
