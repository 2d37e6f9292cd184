import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';

/**
 * The install script a user runs as root on their server (`curl -fsSL .../install/KEY | bash`).
 * It carries no secret but the install key, which works until the agent first connects: the
 * agent's own key is fetched at install time and stored root-only on the server. It carries the
 * SHA-256 of the agent bundle the panel serves, and runs no other bundle.
 */

export interface AgentBundle {
  bytes: Buffer;
  /** Hex SHA-256 of `bytes`. */
  sha256: string;
}

let cached: (AgentBundle & { file: string; mtimeMs: number; size: number }) | null = null;

/**
 * The agent bundle the panel serves and its hash, read again when the file changes (a rebuild);
 * null when it is not built. The hash is of the bytes served, never of a file read elsewhere.
 */
export async function agentBundle(file: string): Promise<AgentBundle | null> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  if (cached?.file === file && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size)
    return cached;
  const bytes = await fs.readFile(file).catch(() => null);
  if (!bytes) return null;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  cached = { file, mtimeMs: stat.mtimeMs, size: stat.size, bytes, sha256 };
  return cached;
}

/** Only what a URL or install key may contain ever lands in the script. */
const SAFE = /^[A-Za-z0-9:/._~?&=%-]+$/;

export function installCommand(panelUrl: string, installKey: string): string {
  return `curl -fsSL ${panelUrl}/install/${installKey} | bash`;
}

/** The line after which the script acts; what comes before only defines (tests run that part). */
export const INSTALL_STEPS_MARKER = '# ---- the install itself ----';

/**
 * `agentSha256`: the hex SHA-256 of the bundle the panel serves (agentBundle), or null when it
 * has none: the script then stops before changing anything, saying so.
 */
export function installScript(
  panelUrl: string,
  installKey: string,
  agentSha256: string | null,
): string {
  if (!SAFE.test(panelUrl) || !SAFE.test(installKey)) throw new Error('unsafe install parameters');
  if (agentSha256 !== null && !/^[0-9a-f]{64}$/.test(agentSha256))
    throw new Error('unsafe install parameters');
  return `#!/usr/bin/env bash
# Stackdeck agent installer. Run as root: it installs Node.js from the distribution if needed,
# the agent, its configuration and a service, then starts it.
set -euo pipefail
PANEL='${panelUrl}'
INSTALL_KEY='${installKey}'
# The SHA-256 of the agent this panel serves: any other download is refused.
AGENT_SHA256='${agentSha256 ?? ''}'
export DEBIAN_FRONTEND=noninteractive

event() { # event TEXT CODE: progress shown in the panel (code x 10 = per cent)
  curl -fsS -m 10 -X POST -H 'content-type: application/json' \\
    --data "{\\"event\\":\\"$1\\",\\"code\\":$2}" "$PANEL/install/$INSTALL_KEY/events" >/dev/null || true
}
fail() { event "$1" -1; echo "stackdeck: $1" >&2; exit 1; }

check_agent() { # check_agent FILE: FILE is the agent this script was written for, or it is removed
  [ -n "$AGENT_SHA256" ] ||
    fail "The panel has no agent build to install: run npm run build on the panel, then run this command again"
  command -v sha256sum >/dev/null 2>&1 || fail "sha256sum (coreutils) is needed to check the agent"
  if ! printf '%s  %s\\n' "$AGENT_SHA256" "$1" | sha256sum -c --status - 2>/dev/null; then
    rm -f -- "$1"
    fail "The downloaded agent does not match the SHA-256 this script carries ($AGENT_SHA256): it was not installed. Copy the install command from the panel again; if this repeats, something between this server and the panel changes the download"
  fi
}

${INSTALL_STEPS_MARKER}
trap 'fail "The installer stopped at line $LINENO"' ERR

[ "$(id -u)" -eq 0 ] || { echo "stackdeck: run this as root" >&2; exit 1; }
[ -n "$AGENT_SHA256" ] ||
  fail "The panel has no agent build to install: run npm run build on the panel, then run this command again"
event "Installer started on $(hostname)" 1

if ! command -v node >/dev/null 2>&1 || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
  event "Installing Node.js from the distribution" 2
  apt-get update -qq
  apt-get install -y -qq nodejs >/dev/null
fi
NODE="$(command -v node)"

event "Downloading the agent" 4
install -d -m 0755 /opt/stackdeck
install -d -m 0700 /etc/stackdeck
curl -fsSL "$PANEL/agent/stackdeck-agent.mjs" -o /opt/stackdeck/agent.mjs.new
check_agent /opt/stackdeck/agent.mjs.new
mv /opt/stackdeck/agent.mjs.new /opt/stackdeck/agent.mjs

event "Writing the agent's configuration" 5
umask 077
curl -fsS -X POST "$PANEL/install/$INSTALL_KEY/credentials" -o /etc/stackdeck/agent.json.new
mv /etc/stackdeck/agent.json.new /etc/stackdeck/agent.json
umask 022

event "Installing the agent service" 6
cat > /etc/systemd/system/stackdeck-agent.service 2>/dev/null <<UNIT || true
[Unit]
Description=Stackdeck agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=$NODE /opt/stackdeck/agent.mjs
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
UNIT

cat > /etc/init.d/stackdeck-agent <<'INIT'
#!/bin/sh
### BEGIN INIT INFO
# Provides:          stackdeck-agent
# Required-Start:    $network $remote_fs
# Required-Stop:     $network $remote_fs
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: Stackdeck agent
### END INIT INFO
PIDFILE=/run/stackdeck-agent.pid
case "$1" in
  start)
    start-stop-daemon --start --quiet --background --make-pidfile --pidfile $PIDFILE \\
      --startas /bin/sh -- -c "exec $(command -v node) /opt/stackdeck/agent.mjs >>/var/log/stackdeck-agent.log 2>&1" ;;
  stop) start-stop-daemon --stop --quiet --oknodo --retry 5 --pidfile $PIDFILE; rm -f $PIDFILE ;;
  restart) "$0" stop; "$0" start ;;
  status) start-stop-daemon --status --pidfile $PIDFILE && echo running || { echo stopped; exit 3; } ;;
  *) echo "Usage: $0 {start|stop|restart|status}"; exit 1 ;;
esac
INIT
chmod 0755 /etc/init.d/stackdeck-agent

# The agent's own removal, run when the server is removed from the panel.
cat > /opt/stackdeck/uninstall.sh <<'UNINSTALL'
#!/bin/sh
sleep 1
if [ -d /run/systemd/system ]; then
  systemctl disable --now stackdeck-agent >/dev/null 2>&1 || true
else
  service stackdeck-agent stop >/dev/null 2>&1 || true
fi
update-rc.d -f stackdeck-agent remove >/dev/null 2>&1 || true
rm -rf /etc/systemd/system/stackdeck-agent.service /etc/init.d/stackdeck-agent /etc/stackdeck /opt/stackdeck
UNINSTALL
chmod 0700 /opt/stackdeck/uninstall.sh

event "Starting the agent" 8
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable --now stackdeck-agent
else
  update-rc.d stackdeck-agent defaults >/dev/null
  service stackdeck-agent restart
fi
event "Agent started; waiting for it to connect" 9
echo "stackdeck: the agent is installed and connecting to $PANEL"
`;
}
