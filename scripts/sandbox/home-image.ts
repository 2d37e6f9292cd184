import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { release } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { runOk } from './run';

/**
 * Whether this kernel can enforce user and group quotas on ext4: that needs a quota format
 * (CONFIG_QFMT_V2, built in or as the quota_v2 module). undefined when the kernel does not tell.
 */
export function kernelHasQuotaFormat(): boolean | undefined {
  const config = kernelConfig();
  if (config !== undefined) return /^CONFIG_QFMT_V2=[ym]$/m.test(config);
  if (existsSync(`/lib/modules/${release()}/kernel/fs/quota`)) return true;
  return undefined;
}

function kernelConfig(): string | undefined {
  try {
    return gunzipSync(readFileSync('/proc/config.gz')).toString('utf8');
  } catch {
    try {
      return readFileSync(`/boot/config-${release()}`, 'utf8');
    } catch {
      return undefined;
    }
  }
}

/**
 * A sparse ext4 image for the sandbox's /home. With quota, ext4's own quota feature (hidden,
 * journaled quota inodes) for users and groups, so setquota/quota work with no quotacheck.
 */
export async function createHomeImage(path: string, sizeMb: number, quota: boolean): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    await file.truncate(sizeMb * 1024 * 1024);
  } finally {
    await file.close();
  }
  const features = quota ? ['-O', 'quota', '-E', 'quotatype=usrquota:grpquota'] : [];
  await runOk('mkfs.ext4', ['-q', '-F', '-L', 'sandbox-home', ...features, path]);
}
