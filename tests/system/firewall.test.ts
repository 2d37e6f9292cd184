import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import {
  type Panel,
  type ServerRecord,
  installedSandbox,
  startPanel,
  waitConnected,
} from './harness/panel';
import { statusFrom } from './harness/curl';
import { waitFor } from '../waitFor';

/**
 * The firewall on a sandbox server: the panel's API drives the real agent, which loads
 * `table inet stackdeck` with the real nft; clients inside the sandbox's own network namespace
 * connect to its nginx from loopback-range source addresses (`curl --interface 127.0.0.5`),
 * never private or public ones. Denied sources time out, allowed ones get nginx's answer.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const panelPort = () => Number(new URL(panel.url).port);

const table = async () => (await sb.exec(['nft', 'list', 'table', 'inet', 'stackdeck'])).stdout;

beforeAll(async () => {
  // The dead-man check waits 3 s here instead of 20.
  process.env.STACKDECK_FIREWALL_CONFIRM_MS = '3000';
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'firewall', ['nginx']));
}, 180_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('the firewall on a sandbox server', () => {
  it('loads the table when enabled; an open port answers every source', async () => {
    expect(await statusFrom(sb, '127.0.0.5')).toBe('200');
    const on = await panel.api('PATCH', path('csf'), { enabled: true, ddos_status: true });
    expect(on.statusCode, on.body).toBe(200);
    const text = await table();
    expect(text).toContain('chain input');
    expect(text).toMatch(/policy drop/);
    // The guard: the panel's port the agent uses and sshd's port, ahead of the lists.
    expect(text).toContain(`ip daddr 127.0.0.1 tcp dport ${panelPort()} accept`);
    expect(text).toMatch(/tcp dport \{?\s*22\s*\}? accept/);
    expect(await statusFrom(sb, '127.0.0.5')).toBe('200');
    // The persisted copy, loaded at boot through nftables.conf.
    expect((await sb.execOk(['cat', '/etc/nftables.conf'])).stdout).toContain(
      'include "/etc/stackdeck/firewall/stackdeck.nft"',
    );
  });

  it('a denied address cannot connect, another can; allow beats deny', async () => {
    const deny = await panel.api('POST', path('csf/csf_deny'), {
      ip: '127.0.0.5',
      comment: 'test',
    });
    expect(deny.statusCode, deny.body).toBe(201);
    expect(await statusFrom(sb, '127.0.0.5')).toBe('000');
    expect(await statusFrom(sb, '127.0.0.6')).toBe('200');
    const live = await panel.api('GET', path('csf/csf-denylist'));
    expect(live.json().data).toContainEqual({
      ip: '127.0.0.5',
      kind: 'deny',
      port: null,
      expires_in: null,
    });

    const allow = await panel.api('POST', path('csf/csf_allow'), { ip: '127.0.0.5' });
    expect(allow.statusCode, allow.body).toBe(201);
    expect(await statusFrom(sb, '127.0.0.5')).toBe('200');
    const off = await panel.api('DELETE', `${path('csf/csf_allow')}?ip=127.0.0.5`);
    expect(off.json().message).toBe('IP address removed successfully!');
    expect(await statusFrom(sb, '127.0.0.5')).toBe('000');
    await panel.api('DELETE', `${path('csf/csf_deny')}?ip=127.0.0.5`);
    expect(await statusFrom(sb, '127.0.0.5')).toBe('200');
  });

  it('a temporary deny holds for its ttl, then expires', async () => {
    const res = await panel.api('POST', path('trules/deny'), { ip: '127.0.0.7', ttl: 4 });
    expect(res.statusCode, res.body).toBe(201);
    expect(await statusFrom(sb, '127.0.0.7')).toBe('000');
    const live = (await panel.api('GET', path('csf/csf-denylist'))).json().data as {
      ip: string;
      expires_in: number | null;
    }[];
    const entry = live.find((e) => e.ip === '127.0.0.7');
    expect(entry?.expires_in).toBeGreaterThanOrEqual(0);
    expect(entry?.expires_in).toBeLessThanOrEqual(4);
    // The kernel drops the element at its timeout (nft's own clock: nothing to drive from the
    // panel, and no event to wait for): the table is read until it is gone.
    await waitFor(
      'the temporary deny of 127.0.0.7 to expire',
      async () => !(await table()).includes('127.0.0.7'),
      {
        timeoutMs: 20_000,
        intervalMs: 250,
      },
    );
    expect(await statusFrom(sb, '127.0.0.7')).toBe('200');
  });

  it('closing an inbound port closes it; opening it again opens it', async () => {
    const close = await panel.api('PATCH', path('ports/in'), { tcp: '22,443' });
    expect(close.statusCode, close.body).toBe(200);
    expect(await statusFrom(sb, '127.0.0.6')).toBe('000');
    const open = await panel.api('PATCH', path('ports/in'), { tcp: '22,80,443' });
    expect(open.json().tcp).toBe('22,80,443');
    expect(await statusFrom(sb, '127.0.0.6')).toBe('200');
  });

  it('applies a 10,000-entry deny list in one transaction and adds one more at runtime', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      server_id: server.id,
      list: 'csf_deny',
      // 127.1.0.0 - 127.1.39.15: loopback range, never the server's own 127.0.0.1.
      ip: `127.1.${Math.floor(i / 256)}.${i % 256}`,
      comment: '',
      created_at: new Date().toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await panel.t.app.db
        .insertInto('firewall_entries')
        .values(rows.slice(i, i + 500))
        .execute();
    const started = Date.now();
    const reload = await panel.api('GET', `${path('csf/service')}?action=reload`);
    const fullMs = Date.now() - started;
    expect(reload.statusCode, reload.body).toBe(200);
    expect(reload.json().counts.deny).toBeGreaterThan(0);
    expect(await statusFrom(sb, '127.1.20.20')).toBe('000');
    expect(await statusFrom(sb, '127.0.0.6')).toBe('200');

    const one = Date.now();
    const add = await panel.api('POST', path('csf/csf_deny'), { ip: '127.0.0.8' });
    const oneMs = Date.now() - one;
    expect(add.statusCode, add.body).toBe(201);
    expect(await statusFrom(sb, '127.0.0.8')).toBe('000');
    console.log(
      `firewall: 10,000-entry deny list applied in ${fullMs} ms; one added in ${oneMs} ms`,
    );
    await waitConnected(panel, server.id);
    await panel.t.app.db
      .deleteFrom('firewall_entries')
      .where('server_id', '=', server.id)
      .execute();
    expect((await panel.api('GET', `${path('csf/service')}?action=reload`)).statusCode).toBe(200);
  }, 120_000);

  it('rolls back a ruleset that cuts the agent off from the panel, and the agent stays', async () => {
    // The server admin's own rule (root's local file) drops the agent's path to the panel.
    const local = `tcp dport ${panelPort()} drop\n`;
    await sb.execOk([
      'bash',
      '-c',
      `umask 022; printf '%s' '${local}' > /etc/stackdeck/firewall/local-input.nft`,
    ]);
    const res = await panel.api('GET', `${path('csf/service')}?action=reload`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(/previous rules were restored/);
    expect(await table()).not.toContain(`tcp dport ${panelPort()} drop`);
    await waitConnected(panel, server.id);
    await sb.execOk(['rm', '/etc/stackdeck/firewall/local-input.nft']);
    const again = await panel.api('GET', `${path('csf/service')}?action=status`);
    expect(again.json()).toMatchObject({ running: true });
    expect(await statusFrom(sb, '127.0.0.6')).toBe('200');
  }, 60_000);

  it('stop removes the table; the server is open again', async () => {
    await panel.api('POST', path('csf/csf_deny'), { ip: '127.0.0.9' });
    const stop = await panel.api('GET', `${path('csf/service')}?action=stop`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({ running: false });
    expect(await statusFrom(sb, '127.0.0.9')).toBe('200');
  });
});
