/**
 * The firewall after a reboot: Debian loads /etc/nftables.conf at boot (nftables.service), so
 * the panel's file is included from there, and the service enabled where systemd runs.
 */
import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { run } from '../../agent/lib/exec';
import { hasSystemd } from '../../agent/lib/init';

const CONF = '/etc/nftables.conf';

export async function persistAtBoot(file: string): Promise<void> {
  const line = `include "${file}"`;
  const current = await fs.readFile(CONF, 'utf8').catch(() => '#!/usr/sbin/nft -f\n');
  if (!current.split('\n').some((l) => l.trim() === line))
    await writeFileAtomic(
      CONF,
      `${current.replace(/\n*$/, '\n')}# The Stackdeck panel's firewall (table inet stackdeck)\n${line}\n`,
      0o755,
    );
  if (await hasSystemd())
    await run('systemctl', ['enable', '--quiet', 'nftables']).catch(() => null);
}
