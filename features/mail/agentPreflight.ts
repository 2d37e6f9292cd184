import dns from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';

interface Check {
  ok: boolean;
  message: string;
}

const FQDN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

/** This machine's addresses (loopback included: a sandbox's only ones). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) out.add(a.address);
  return out;
}

async function resolveAll(hostname: string): Promise<string[]> {
  const found = await dns.lookup(hostname, { all: true }).catch(() => []);
  return found.map((a) => a.address);
}

/** Whether a TCP connection to host:port opens within the time. */
function connects(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer in ${timeoutMs / 1000} s`));
    socket.once('connect', () => done(null));
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
  });
}

/**
 * The host name is a FQDN that resolves to this machine; its addresses' PTR names it; port 25
 * opens outbound. Port 25 is tried only towards `probe`: without one, nothing is contacted
 * (the panel names a host it trusts; tests a loopback sink) and the answer says "not checked".
 */
export async function preflight(
  hostname: string,
  probe: { host: string; port: number } | undefined,
): Promise<{ hostname: Check; ptr: Check; port25: Check }> {
  const name = hostname.trim().toLowerCase().replace(/\.$/, '');
  let host: Check;
  let addresses: string[] = [];
  if (!FQDN.test(name)) {
    host = { ok: false, message: `${hostname} is not a full host name such as mail.example.com` };
  } else {
    addresses = await resolveAll(name);
    const own = ownAddresses();
    const mine = addresses.filter((a) => own.has(a));
    host = !addresses.length
      ? { ok: false, message: `${name} does not resolve: add an A record pointing at this server` }
      : mine.length
        ? { ok: true, message: `${name} resolves to this server (${mine.join(', ')})` }
        : {
            ok: false,
            message: `${name} resolves to ${addresses.join(', ')}, not to this server: correct its A record`,
          };
  }
  let ptr: Check;
  if (!addresses.length) {
    ptr = { ok: false, message: 'Not checked: the host name does not resolve' };
  } else {
    const bad: string[] = [];
    for (const a of addresses) {
      const names = await dns.reverse(a).catch(() => [] as string[]);
      if (!names.map((n) => n.toLowerCase().replace(/\.$/, '')).includes(name))
        bad.push(`${a} → ${names.join(', ') || 'no PTR'}`);
    }
    ptr = bad.length
      ? {
          ok: false,
          message: `The reverse DNS (PTR) should be ${name}: ${bad.join('; ')}. Set it at your provider`,
        }
      : { ok: true, message: `The reverse DNS of ${addresses.join(', ')} is ${name}` };
  }
  let port25: Check;
  if (!probe) {
    port25 = { ok: true, message: 'Outbound port 25 not checked' };
  } else {
    const error = await connects(probe.host, probe.port, 5000);
    port25 = error
      ? {
          ok: false,
          message: `Could not reach ${probe.host}:${probe.port} (${error}): your provider may block outbound port 25; use a smarthost`,
        }
      : { ok: true, message: `Outbound connections to ${probe.host}:${probe.port} work` };
  }
  return { hostname: host, ptr, port25 };
}
