/**
 * What the Connect page says about the panel's own address (PUBLIC_URL), which the install
 * command and the agent use to reach the panel.
 */

/** The panel address an install command names (`curl -fsSL {panel}/install/{key} | bash`). */
export function panelUrlOf(command: string): string | null {
  return /^curl -fsSL (\S+?)\/install\/\S+ \| bash$/.exec(command.trim())?.[1] ?? null;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '0.0.0.0' ||
    host === '::1' ||
    host === '::' ||
    /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(host)
  );
}

export interface PanelUrlProblems {
  /** Loopback (or PUBLIC_URL left unset): another machine reaches itself at that address. */
  unreachable: boolean;
  /** Plain http: the install and the agent send the agent's key unencrypted. */
  plainHttp: boolean;
}

export function panelUrlProblems(panelUrl: string): PanelUrlProblems {
  let url: URL;
  try {
    url = new URL(panelUrl);
  } catch {
    return { unreachable: true, plainHttp: false };
  }
  return { unreachable: isLoopback(url.hostname), plainHttp: url.protocol === 'http:' };
}
