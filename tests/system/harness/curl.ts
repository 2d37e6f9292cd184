import type { Sandbox } from '../../../scripts/sandbox/index';

/**
 * `curl` inside a sandbox, as a client on the server's own network sees its sites: the answers
 * the system tests check.
 */

/** nginx's status code for a client at `source` (a 127.0.0.x address), or 000 when nothing answers within 2 s. */
export async function statusFrom(sb: Sandbox, source: string, port = 80): Promise<string> {
  const res = await sb.exec([
    'curl',
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '--max-time',
    '2',
    '--interface',
    source,
    `http://127.0.0.1:${port}/`,
  ]);
  return res.stdout.trim();
}

/** A site's answer through nginx on the sandbox's loopback, by its host name: status and body. */
export async function pageOf(sb: Sandbox, host: string, url = '/') {
  const res = await sb.exec([
    'curl',
    '-s',
    '-w',
    '\n%{http_code}',
    '-H',
    `Host: ${host}`,
    `http://127.0.0.1${url}`,
  ]);
  const lines = res.stdout.split('\n');
  const status = Number(lines.pop());
  return { status, body: lines.join('\n').replace(/\n$/, '') };
}
