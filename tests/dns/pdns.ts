import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from '../../server/db/sqliteDriver';

const run = promisify(execFile);
const SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';

/** A real PowerDNS authoritative server on loopback, with its own sqlite database. */
export interface PdnsServer {
  /** The API address to give the panel (`http://127.0.0.1:PORT`). */
  apiUrl: string;
  apiKey: string;
  /** The DNS port (UDP and TCP) on 127.0.0.1. */
  dnsPort: number;
  /** `dig +short @127.0.0.1 -p PORT name type`: the answers, one a line. */
  dig(name: string, type?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** A port free for TCP and UDP right now. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = dgram.createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

export async function startPdns(): Promise<PdnsServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-pdns-'));
  const dbFile = path.join(dir, 'pdns.sqlite3');
  const db = new Database(dbFile);
  db.exec(fs.readFileSync(SCHEMA, 'utf8'));
  db.close();
  fs.writeFileSync(path.join(dir, 'pdns.conf'), '');
  const apiKey = randomBytes(18).toString('base64url');
  const [dnsPort, webPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    '/usr/sbin/pdns_server',
    [
      `--config-dir=${dir}`,
      `--socket-dir=${dir}`,
      '--launch=gsqlite3',
      `--gsqlite3-database=${dbFile}`,
      '--local-address=127.0.0.1',
      `--local-port=${dnsPort}`,
      '--api=yes',
      `--api-key=${apiKey}`,
      '--webserver=yes',
      '--webserver-address=127.0.0.1',
      `--webserver-port=${webPort}`,
      '--webserver-allow-from=127.0.0.0/8',
      '--daemon=no',
      '--guardian=no',
      '--disable-syslog',
      '--write-pid=no',
      // Answers follow API changes at once.
      '--cache-ttl=0',
      '--negquery-cache-ttl=0',
      '--query-cache-ttl=0',
      '--zone-cache-refresh-interval=0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test process that ends without stop() (a crash, a time-out) takes its server along.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const apiUrl = `http://127.0.0.1:${webPort}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pdns_server exited:\n${output}`);
    try {
      const res = await fetch(`${apiUrl}/api/v1/servers`, { headers: { 'X-API-Key': apiKey } });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pdns_server did not answer:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    apiUrl,
    apiKey,
    dnsPort,
    async dig(name, type = 'A') {
      const { stdout } = await run('dig', [
        '+short',
        '+tries=1',
        '+time=2',
        '@127.0.0.1',
        '-p',
        String(dnsPort),
        name,
        type,
      ]);
      return stdout.split('\n').filter(Boolean);
    },
    async stop() {
      process.off('exit', orphanGuard);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
