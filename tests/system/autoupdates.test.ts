import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * Automatic updates on a real server: the panel's switches become apt configuration, checked
 * by apt itself (`apt-config dump`) and by unattended-upgrade's own dry run ("Allowed origins
 * are: ..."), with Debian 12's stock 50unattended-upgrades in place (which, untouched, also
 * takes the point releases).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const SECURITY = 'origin=Debian,codename=${distro_codename}-security,label=Debian-Security';
const MAIN = 'origin=Debian,codename=${distro_codename},label=Debian';
const UPDATES = 'origin=Debian,codename=${distro_codename}-updates,label=Debian';

const path = () => `thirdpartyupd/servers/${server.id}/users/${panel.uid}`;

async function sh(script: string): Promise<string> {
  return (await sb.execOk(['bash', '-c', script])).stdout.trim();
}

const patterns = async () =>
  (await sh('apt-config dump | grep "^Unattended-Upgrade::Origins-Pattern:: " || true'))
    .split('\n')
    .filter(Boolean)
    .map((line) => /"(.*)";$/.exec(line)![1]);

/**
 * The dry run's own line: it is stopped once it has printed it (it would go on to simulate a
 * whole upgrade, and it ignores SIGTERM). Its output goes to a new empty file made before it
 * starts: with one file for every run, the wait could read the previous run's line before the
 * new run had truncated it (seen on a loaded machine).
 */
const dryRunAllows = async () =>
  sh(
    [
      'out=$(mktemp /tmp/uu.XXXXXX)',
      'unattended-upgrade --dry-run --debug >"$out" 2>&1 & pid=$!',
      'for i in $(seq 300); do grep -q "^Allowed origins are:" "$out" && break; sleep 0.1; done',
      'kill -9 $pid; wait $pid 2>/dev/null',
      'grep -m1 "^Allowed origins are:" "$out" || true',
      'rm -f "$out"',
    ].join('\n'),
  );

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'autoupdates', ['ssh']));
}, 240_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('automatic updates', () => {
  it("reads Debian's stock configuration: the point releases are in it", async () => {
    const res = await panel.api('GET', path());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { origins: string[] };
    expect(body.origins).toContain(MAIN);
    expect(body.origins).toContain(SECURITY);
  });

  it('security only: apt and the dry run allow Debian-Security alone', async () => {
    const res = await panel.api('PATCH', path(), { security_update: true, software_update: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      security_update: true,
      software_update: false,
      origins: [SECURITY],
    });
    expect(await patterns()).toEqual([SECURITY]);
    expect(await sh('apt-config dump | grep "^APT::Periodic::Unattended-Upgrade "')).toBe(
      'APT::Periodic::Unattended-Upgrade "1";',
    );
    expect(await dryRunAllows()).toBe(
      'Allowed origins are: origin=Debian,codename=bookworm-security,label=Debian-Security',
    );
    expect((await panel.api('GET', path())).json()).toMatchObject({
      security_update: true,
      software_update: false,
    });
  });

  it('software too: the main archive and -updates join', async () => {
    const res = await panel.api('PATCH', path(), { software_update: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ security_update: true, software_update: true });
    expect(await patterns()).toEqual([SECURITY, MAIN, UPDATES]);
    const allowed = await dryRunAllows();
    expect(allowed).toContain('origin=Debian,codename=bookworm,label=Debian');
    expect(allowed).toContain('origin=Debian,codename=bookworm-updates,label=Debian');
    expect(allowed).toContain('codename=bookworm-security');
  });

  it('both off: the periodic run is 0 and no origin is allowed', async () => {
    const res = await panel.api('PATCH', path(), {
      security_update: false,
      software_update: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ security_update: false, software_update: false, origins: [] });
    expect(await sh('apt-config dump | grep "^APT::Periodic::Unattended-Upgrade "')).toBe(
      'APT::Periodic::Unattended-Upgrade "0";',
    );
    expect(await dryRunAllows()).toBe('Allowed origins are:');
  });

  it("a file of the admin's sorted after ours that the dry run disagrees with: undone, with why", async () => {
    await sh(
      `printf 'Unattended-Upgrade::Origins-Pattern { "origin=Example"; };\\n' >/etc/apt/apt.conf.d/60local`,
    );
    const before = await sh('cat /etc/apt/apt.conf.d/52stackdeck-unattended-upgrades');
    const res = await panel.api('PATCH', path(), { security_update: true });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringMatching(/origin=Example.*undone/) });
    expect(await sh('cat /etc/apt/apt.conf.d/52stackdeck-unattended-upgrades')).toBe(before);
    expect(await sh('apt-config dump | grep "^APT::Periodic::Unattended-Upgrade "')).toBe(
      'APT::Periodic::Unattended-Upgrade "0";',
    );
    await sh('rm /etc/apt/apt.conf.d/60local');
  });
});
