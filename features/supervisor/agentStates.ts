import fs from 'node:fs/promises';
import http from 'node:http';
import { CONF_DIR, PREFIX, type ProcessStatus } from './program';
import { PROCESS_INFO_CALL, parseProcessInfo } from './rpcStatus';

/** Debian's supervisord socket (`[unix_http_server] file=`), root's. */
const SOCKET = '/var/run/supervisor.sock';

function ask(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: SOCKET,
        path: '/RPC2',
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        timeout: 2000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > 1_000_000) req.destroy(new Error('answer too long'));
        });
        res.on('end', () => resolve(body));
      },
    );
    req.on('timeout', () => req.destroy(new Error('supervisord did not answer')));
    req.on('error', reject);
    req.end(PROCESS_INFO_CALL);
  });
}

/**
 * The states of the panel's supervisor jobs for the live report, so a browser sees a job start,
 * stop or fail as the agent reports it (pushed, no poll): undefined on a server without the
 * panel's programs or without a running supervisord.
 */
export async function supervisorStates(): Promise<ProcessStatus[] | undefined> {
  const files = await fs.readdir(CONF_DIR).catch(() => [] as string[]);
  if (!files.some((file) => file.startsWith(PREFIX) && file.endsWith('.conf'))) return undefined;
  try {
    return parseProcessInfo(await ask());
  } catch {
    return undefined;
  }
}
