/**
 * The lock-out guard: what must stay reachable whatever the lists say (the panel's address and
 * port this agent uses, sshd's ports), and the dead-man check after a new ruleset is loaded:
 * a NEW connection to the panel must get an answer, or the previous ruleset comes back.
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { loadConfig } from '../../agent/config';
import { run } from '../../agent/lib/exec';
import type { Guard } from './render';

function panelUrl(): URL {
  return new URL(loadConfig().panel_url);
}

/** sshd's ports as it runs them (`sshd -T`); 22 when sshd cannot say. */
export async function sshPorts(): Promise<number[]> {
  const res = await run('/usr/sbin/sshd', ['-T']).catch(() => null);
  const ports = (res?.code === 0 ? res.stdout : '')
    .split('\n')
    .map((l) => /^port (\d+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter((p) => p >= 1 && p <= 65535);
  return ports.length ? [...new Set(ports)] : [22];
}

export async function currentGuard(): Promise<Guard> {
  const url = panelUrl();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const found = await dns.lookup(host, { all: true }).catch(() => []);
  const panel = found
    .filter((a) => a.family === 4 || a.family === 6)
    .map((a) => ({ family: a.family as 4 | 6, addr: a.address, port }));
  return { panel, ssh_ports: await sshPorts() };
}

/**
 * One request to the panel over a connection of its own (no keep-alive pool: an open socket
 * is established traffic and would pass any ruleset). Any HTTP answer proves the new rules
 * let the agent reach the panel; nothing within `ms` means they do not.
 */
export function panelAnswers(ms: number): Promise<boolean> {
  const url = new URL('/healthz', panelUrl());
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: ms, headers: { connection: 'close' } }, (res) => {
      res.resume();
      resolve(true);
    });
    const timer = setTimeout(() => req.destroy(new Error('no answer')), ms);
    req.on('error', () => resolve(false));
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error('timed out')));
  });
}
