/**
 * IMAP sessions of the webmail, one per mailbox, opened on 127.0.0.1 as Dovecot's master user
 * with the mailbox as the SASL authorization id (research mail.md s.6), and kept open for a
 * while: a login costs the master password's hash on Dovecot's side, more than a page of a
 * folder does. One op at a time per mailbox (a session has one selected folder).
 */
import { ImapFlow } from 'imapflow';
import { MASTER_USER } from './agentConfigs';
const IDLE_MS = 60_000;
const MAX_SESSIONS = 32;

interface Session {
  client: ImapFlow;
  /** The tail of this mailbox's queue: each op waits for the previous one. */
  queue: Promise<unknown>;
  timer?: NodeJS.Timeout;
}

export interface ImapTarget {
  host: string;
  port: number;
  /** The master user's password (the agent's own secret). */
  secret: () => Promise<string>;
}

export class ImapPool {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly target: ImapTarget) {}

  /** Runs fn with the mailbox's session, after the ops already queued for it. */
  async with<T>(address: string, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
    let session = this.sessions.get(address);
    if (!session) {
      session = { client: await this.open(address), queue: Promise.resolve() };
      this.evictBeyond(MAX_SESSIONS - 1);
      this.sessions.set(address, session);
    }
    const mine = session;
    const run = mine.queue.then(async () => {
      clearTimeout(mine.timer);
      if (!mine.client.usable) mine.client = await this.open(address);
      try {
        return await fn(mine.client);
      } finally {
        mine.timer = setTimeout(() => this.close(address), IDLE_MS);
        mine.timer.unref();
      }
    });
    mine.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends every session (the agent stops, or mail is disabled). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((a) => this.close(a)));
  }

  private async open(address: string): Promise<ImapFlow> {
    const client = new ImapFlow({
      host: this.target.host,
      port: this.target.port,
      secure: false,
      // Loopback: STARTTLS would meet the server's certificate for its public name and fail.
      doSTARTTLS: false,
      auth: {
        user: MASTER_USER,
        pass: await this.target.secret(),
        authzid: address,
        loginMethod: 'AUTH=PLAIN',
      },
      logger: false,
      disableAutoIdle: true,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  private async close(address: string): Promise<void> {
    const session = this.sessions.get(address);
    if (!session) return;
    this.sessions.delete(address);
    clearTimeout(session.timer);
    await session.queue;
    await session.client.logout().catch(() => session.client.close());
  }

  private evictBeyond(limit: number): void {
    // Maps keep insertion order: the oldest sessions go first.
    for (const address of [...this.sessions.keys()].slice(
      0,
      Math.max(0, this.sessions.size - limit),
    ))
      void this.close(address);
  }
}
