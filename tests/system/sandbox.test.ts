import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { Server as SocketServer } from 'socket.io';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, DEFAULT_SERVICES, startSandbox } from '../../scripts/sandbox/index';
import { allPids, markedProcesses, namespaceOf } from '../../scripts/sandbox/processes';
import { run } from '../../scripts/sandbox/run';

/**
 * One sandbox for the whole file (booting costs seconds on two cores): what it isolates, the
 * services it really runs, the panel forward, a reboot, and a stop that leaves nothing behind.
 * The tests run in order and build on each other where the reboot checks what came before.
 */

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
let sb: Sandbox;
let panel: http.Server;
let panelUrl: string;
const hostName = hostname();
const hostPasswd = readFileSync('/etc/passwd', 'utf8');

/** Runs bash -c inside and expects exit 0. */
async function sh(script: string, user?: string): Promise<string> {
  const res = await sb.exec(['bash', '-c', script], { user });
  if (res.code !== 0) throw new Error(`${script} → exit ${res.code}\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

/** A stand-in for the panel on the host: plain HTTP, and a websocket that echoes one frame. */
function startPanel(): Promise<void> {
  panel = http.createServer((req, res) => res.end(`panel on the host answers ${req.url}`));
  // socket.io, as the panel's /agent namespace runs it: an ack over the websocket transport.
  const io = new SocketServer(panel, { destroyUpgrade: false });
  io.on('connection', (socket) =>
    socket.on('ping', (text: string, ack: (a: string) => void) => ack(`pong:${text}`)),
  );
  panel.on('upgrade', (req, socket) => {
    if (req.url !== '/socket') return;
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}${WS_GUID}`)
      .digest('base64');
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.once('data', (frame: Buffer) => {
      // A client frame: FIN+text, masked, length < 126, 4 mask bytes, the payload.
      const len = frame[1]! & 0x7f;
      const mask = frame.subarray(2, 6);
      const text = Buffer.from(frame.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4]!));
      const reply = Buffer.from(`echo:${text.toString()}`);
      socket.end(Buffer.concat([Buffer.from([0x81, reply.length]), reply]));
    });
  });
  return new Promise((resolve) =>
    panel.listen(0, '127.0.0.1', () => {
      panelUrl = `http://127.0.0.1:${(panel.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

/** A websocket client for the sandbox's node: handshake, one masked frame, print the answer. */
const WS_CLIENT = `
const net = require('net'), crypto = require('crypto');
const [port, text] = process.argv.slice(1);
const key = crypto.randomBytes(16).toString('base64');
const s = net.connect(Number(port), '127.0.0.1', () => s.write(
  'GET /socket HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\nUpgrade: websocket\\r\\n' +
  'Connection: Upgrade\\r\\nSec-WebSocket-Key: ' + key + '\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n'));
let buf = Buffer.alloc(0), open = false;
s.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  if (!open) {
    const end = buf.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const head = buf.subarray(0, end).toString();
    const accept = crypto.createHash('sha1').update(key + '${WS_GUID}').digest('base64');
    if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) { console.log(head); process.exit(2); }
    open = true;
    buf = buf.subarray(end + 4);
    const payload = Buffer.from(text), mask = crypto.randomBytes(4);
    s.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask,
      Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
  }
  if (open && buf.length >= 2 && buf.length >= 2 + (buf[1] & 0x7f)) {
    console.log(buf.subarray(2, 2 + (buf[1] & 0x7f)).toString());
    process.exit(0);
  }
});
setTimeout(() => process.exit(3), 10000);
`;

beforeAll(async () => {
  await startPanel();
  const began = Date.now();
  sb = await startSandbox({
    panel: panelUrl,
    homeSizeMb: 128,
    bootCommands: [['bash', '-c', 'echo "boot $(date +%s%N)" >>/var/log/boot-command.log']],
  });
  console.log(`first boot: ${Date.now() - began} ms (init ready after ${sb.state().bootMs} ms)`);
});

afterAll(async () => {
  await sb?.stop();
  await new Promise((resolve) => panel?.close(resolve));
});

describe('a sandbox server', () => {
  it('is its own host: name, PID 1, loopback only, every service started', async () => {
    expect(await sh('hostname')).toBe(`${sb.hostname}\n`);
    expect(sb.hostname).not.toBe(hostName);
    expect(await sh('cat /proc/1/cmdline | tr "\\0" " "')).toContain(
      '/run/stackdeck-sandbox/init.sh',
    );
    const links = await sh('ip -o link show | cut -d: -f2');
    expect(
      links
        .split('\n')
        .filter(Boolean)
        .map((l) => l.trim()),
    ).toEqual(['lo']);
    const addrs = await sh("ip -o addr show | awk '{print $4}'");
    expect(addrs.split('\n').filter(Boolean).sort()).toEqual(['127.0.0.1/8', '::1/128']);
    expect(sb.services()).toEqual(Object.fromEntries(DEFAULT_SERVICES.map((s) => [s, 'started'])));
  });

  it('changes nothing on the host: users, files, host name, SSH host keys, MariaDB data', async () => {
    await sh('useradd -m -s /bin/bash sbxprobe && echo inside >/root/sbx-probe-file');
    expect(await sh('id -un sbxprobe')).toBe('sbxprobe\n');
    expect((await run('id', ['sbxprobe'])).code).not.toBe(0);
    expect(readFileSync('/etc/passwd', 'utf8')).toBe(hostPasswd);
    expect(existsSync('/root/sbx-probe-file')).toBe(false);
    // The write is in the sandbox's upper dir, i.e. on its own disk.
    expect(readFileSync(`${sb.dir}/upper/root/sbx-probe-file`, 'utf8')).toBe('inside\n');
    expect(hostname()).toBe(hostName);
    const key = await sh('cat /etc/ssh/ssh_host_ed25519_key.pub');
    expect(key).not.toBe(readFileSync('/etc/ssh/ssh_host_ed25519_key.pub', 'utf8'));
    await sh('mysql -e "CREATE DATABASE sbx_probe"');
    expect(existsSync(`${sb.dir}/mysql/sbx_probe`)).toBe(true);
    expect(existsSync('/var/lib/mysql/sbx_probe')).toBe(false);
  });

  it("runs its services in its own namespaces, none in the host's", () => {
    const hostPidNs = namespaceOf(process.pid, 'pid');
    const hostDaemons = allPids().filter((pid) => {
      if (namespaceOf(pid, 'pid') !== hostPidNs) return false;
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      return [
        'nginx',
        'sshd',
        'php-fpm8.2',
        'pure-ftpd',
        'dovecot',
        'master',
        'cron',
        'supervisord',
      ].includes(comm);
    });
    expect(hostDaemons).toEqual([]);
  });

  it('logs a user created inside in over SSH with a key generated inside', async () => {
    await sh('useradd -m -s /bin/bash alice');
    await sh(
      'mkdir -p ~/.ssh && ssh-keygen -q -t ed25519 -N "" -f ~/.ssh/id_ed25519 && ' +
        'cp ~/.ssh/id_ed25519.pub ~/.ssh/authorized_keys && chmod 600 ~/.ssh/authorized_keys',
      'alice',
    );
    const out = await sh(
      'ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ' +
        '-o LogLevel=ERROR alice@127.0.0.1 \'echo "$USER on $(hostname)"\'',
      'alice',
    );
    expect(out).toBe(`alice on ${sb.hostname}\n`);
  });

  it('has a fresh MariaDB that root reaches over the socket', async () => {
    const out = await sh('mysql -N -e "SELECT CURRENT_USER(), @@datadir; SHOW DATABASES"');
    expect(out).toContain('root@localhost\t/var/lib/mysql/');
    // A fresh datadir: the system schemas, the database the isolation test made, nothing of the host's.
    const dbs = out.split('\n').slice(1).filter(Boolean).sort();
    expect(dbs).toEqual(['information_schema', 'mysql', 'performance_schema', 'sbx_probe', 'sys']);
  });

  it('serves nginx on its own 127.0.0.1, and service stop/start really stop and start it', async () => {
    const curl = ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', 'http://127.0.0.1/'];
    expect((await sb.exec(curl)).stdout).toBe('200');
    await sh('service nginx stop');
    const down = await sb.exec(curl);
    expect(down.code).toBe(7); // curl: could not connect
    await sh('service nginx start');
    expect((await sb.exec(curl)).stdout).toBe('200');
  });

  it("answers on the other services' ports and sockets", async () => {
    const banner = (port: number) =>
      sh(`exec 3<>/dev/tcp/127.0.0.1/${port}; timeout 5 head -n1 <&3`);
    expect(await banner(21)).toMatch(/^220/); // pure-ftpd
    expect(await banner(25)).toMatch(/^220 .*ESMTP/); // postfix
    expect(await banner(143)).toMatch(/^\* OK/); // dovecot imap
    expect(await sh('test -S /run/php/php8.2-fpm.sock && echo fpm')).toBe('fpm\n');
    expect(await sh('supervisorctl version')).toMatch(/^\d+\./);
    expect(await sh('pgrep -x cron >/dev/null && echo cron')).toBe('cron\n');
    // nftables rules land in the sandbox's network namespace only.
    await sh('nft add table inet sbx_probe');
    expect(await sh('nft list tables')).toContain('sbx_probe');
    const host = await run('nft', ['list', 'tables']);
    expect(host.stdout).not.toContain('sbx_probe');
  });

  it('reaches the panel on the host at the same 127.0.0.1 URL, websockets included', async () => {
    expect(await sh(`curl -fsS ${panelUrl}/api/ping`)).toBe('panel on the host answers /api/ping');
    const viaLocalhost = panelUrl.replace('127.0.0.1', 'localhost');
    expect(await sh(`curl -fsS -6 ${viaLocalhost}/six`)).toBe('panel on the host answers /six');
    const port = new URL(panelUrl).port;
    const ws = await sb.exec(['node', '-e', WS_CLIENT, port, 'hello']);
    expect(ws.stdout).toBe('echo:hello\n');
  });

  it('carries socket.io over the websocket transport both ways', async () => {
    // Bundled by esbuild, as the agent is: the repo itself may not be visible inside (a clone
    // under /tmp is hidden by the sandbox's own /tmp).
    const bundle = await build({
      stdin: {
        contents: `
          const { io } = require('socket.io-client');
          const socket = io(process.argv[2], { transports: ['websocket'], reconnection: false });
          socket.on('connect_error', (e) => { console.log('error ' + e.message); process.exit(2); });
          socket.emit('ping', 'agent', (answer) => {
            console.log(answer + ' over ' + socket.io.engine.transport.name);
            process.exit(0);
          });
          setTimeout(() => process.exit(3), 10000);`,
        resolveDir: import.meta.dirname,
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    await sb.execOk(['bash', '-c', 'cat >/root/socket-client.js'], {
      input: bundle.outputFiles[0]!.text,
    });
    const res = await sb.exec(['node', '/root/socket-client.js', panelUrl]);
    expect(res.stdout).toBe('pong:agent over websocket\n');
  });

  it('keeps /home on its own ext4 image: a disk that fills up', async () => {
    expect(await sh('findmnt -n -o FSTYPE,SOURCE /home')).toMatch(/^ext4 +\/dev\/loop\d+/);
    const fill = await sb.exec(['fallocate', '-l', '200M', '/home/too-big']);
    expect(fill.stderr).toContain('No space left on device');
    await sh('rm /home/too-big');
    await sh('echo kept >/home/alice/note');
  });

  it('reboots on reboot(2) inside: same disk, services and enabled init.d services back', async () => {
    // An init.d service installed the way the agent's installer will (update-rc.d).
    await sb.execOk(
      [
        'bash',
        '-c',
        'cat >/etc/init.d/sbx-probe && chmod 755 /etc/init.d/sbx-probe && update-rc.d sbx-probe defaults && service sbx-probe start',
      ],
      { input: PROBE_SERVICE },
    );
    await sh('update-rc.d cron disable'); // disabled ones stay down
    const before = sb.reboots;
    const began = Date.now();
    // reboot(2) in a child pid namespace ends the caller with exit 0 and the init with SIGHUP.
    await sb.exec(['systemctl', 'reboot', '--force', '--force']);
    expect(await sb.waitForReboot()).toBe(before + 1);
    console.log(`reboot: ${Date.now() - began} ms (init ready after ${sb.state().bootMs} ms)`);

    expect(await sh('id -un sbxprobe; cat /root/sbx-probe-file /home/alice/note')).toBe(
      'sbxprobe\ninside\nkept\n',
    );
    expect(await sh('hostname')).toBe(`${sb.hostname}\n`);
    expect(sb.services()).toMatchObject({
      'sbx-probe': 'started',
      ssh: 'started',
      mariadb: 'started',
    });
    expect(sb.services().cron).toBeUndefined();
    await sh('service sbx-probe status');
    expect((await sb.exec(['pgrep', '-x', 'cron'])).code).toBe(1);
    expect((await sh('cat /var/log/boot-command.log')).split('\n').filter(Boolean)).toHaveLength(2);
    const ssh = await sh(
      'ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ' +
        '-o LogLevel=ERROR alice@127.0.0.1 whoami',
      'alice',
    );
    expect(ssh).toBe('alice\n');
    expect(await sh('mysql -N -e "SHOW DATABASES LIKE \'sbx_probe\'"')).toBe('sbx_probe\n');
    expect(await sh(`curl -fsS ${panelUrl}/after-reboot`)).toBe(
      'panel on the host answers /after-reboot',
    );
  });

  it('stops without leaving a process, mount, loop device or file', async () => {
    const { initPid, pidNs, socatPid } = sb.state();
    const inside = allPids().filter((pid) => namespaceOf(pid, 'pid') === pidNs);
    expect(initPid).toBeDefined();
    expect(inside.length).toBeGreaterThan(10);
    const loops = await run('losetup', [
      '--noheadings',
      '--output',
      'NAME',
      '--associated',
      `${sb.dir}/home.img`,
    ]);
    expect(loops.stdout.trim()).toMatch(/^\/dev\/loop\d+$/);

    await sb.stop();

    expect(allPids().filter((pid) => namespaceOf(pid, 'pid') === pidNs)).toEqual([]);
    expect(existsSync(`/proc/${socatPid}`)).toBe(false);
    expect(markedProcesses(sb.id)).toEqual([]);
    const mounted = allPids().filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/mountinfo`, 'utf8').includes(sb.dir);
      } catch {
        return false;
      }
    });
    expect(mounted).toEqual([]);
    const list = JSON.parse(
      (await run('losetup', ['--json', '--list'])).stdout || '{"loopdevices":[]}',
    ) as {
      loopdevices: { 'back-file': string | null }[];
    };
    expect(list.loopdevices.filter((d) => d['back-file']?.includes(sb.dir))).toEqual([]);
    expect(existsSync(sb.dir)).toBe(false);
  });
});

const PROBE_SERVICE = `#!/bin/sh
### BEGIN INIT INFO
# Provides:          sbx-probe
# Required-Start:    $remote_fs
# Required-Stop:     $remote_fs
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: a daemon installed like the agent
### END INIT INFO
PID=/run/sbx-probe.pid
case "$1" in
  start) start-stop-daemon --start --quiet --background --make-pidfile --pidfile $PID --exec /usr/bin/sleep -- infinity ;;
  stop) start-stop-daemon --stop --quiet --pidfile $PID --remove-pidfile ;;
  status) start-stop-daemon --status --pidfile $PID ;;
  *) echo "usage: $0 start|stop|status"; exit 2 ;;
esac
`;
