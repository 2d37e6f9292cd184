import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confinedDir,
  confinedNewPath,
  databaseSchema,
  excludeSchema,
  repositorySchema,
  tagSchema,
} from '../../features/backups/agentResticInput';
import { inLane, laneKey, lanesBusy } from '../../features/backups/agentResticLane';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'restic-input-'));
  await mkdir(path.join(root, 'apps/app1'), { recursive: true });
  await symlink('/etc', path.join(root, 'apps/out'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('what reaches restic', () => {
  it('tags are kind:value without commas, of known kinds only', () => {
    for (const ok of ['app:12', 'db:a-b_c.d', 'type:webapp', 'user:7', 'policy:x'])
      expect(tagSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['app:1,type:x', 'run:5', 'app:', 'app 1', '-app:1', 'app:1\n'])
      expect(tagSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('database names come from the allowlist, never MariaDB own', () => {
    expect(databaseSchema.safeParse('shop_1').success).toBe(true);
    for (const bad of ['mysql', 'Information_Schema', 'a-b', 'a;drop', '', 'x'.repeat(65)])
      expect(databaseSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('excludes and repositories are one printable line', () => {
    expect(excludeSchema.safeParse('wp-content/cache').success).toBe(true);
    expect(excludeSchema.safeParse('a\n--password').success).toBe(false);
    expect(repositorySchema.safeParse('/var/backups/repo').success).toBe(true);
    expect(repositorySchema.safeParse('s3:https://s3.example/b/p').success).toBe(true);
    expect(repositorySchema.safeParse('rest:https://u:p@panel/r/').success).toBe(true);
    expect(repositorySchema.safeParse('relative/repo').success).toBe(false);
    expect(repositorySchema.safeParse('/repo\nx').success).toBe(false);
  });

  it('a backup folder is inside an allowed root by its real path', async () => {
    const apps = path.join(root, 'apps');
    expect(await confinedDir(path.join(apps, 'app1'), [apps], 'root')).toBe(
      path.join(apps, 'app1'),
    );
    await expect(confinedDir(path.join(apps, 'out'), [apps], 'root')).rejects.toThrow(/outside/);
    await expect(confinedDir(apps, [apps], 'root')).rejects.toThrow(/outside/);
    await expect(confinedDir(`${apps}/app1/../app1`, [apps], 'root')).rejects.toThrow(/absolute/);
    await expect(confinedDir(path.join(apps, 'none'), [apps], 'root')).rejects.toThrow(/not exist/);
  });

  it('a restore goes to a new path whose folder is inside an allowed root', async () => {
    const apps = path.join(root, 'apps');
    expect(await confinedNewPath(path.join(apps, 'app1.restore'), [apps], 't')).toBe(
      path.join(apps, 'app1.restore'),
    );
    await expect(confinedNewPath(path.join(apps, 'app1'), [apps], 't')).rejects.toThrow(/exists/);
    await expect(confinedNewPath(path.join(apps, 'out/x'), [apps], 't')).rejects.toThrow(/outside/);
    await expect(confinedNewPath('/tmp-nothing/x', [apps], 't')).rejects.toThrow(/does not exist/);
  });
});

describe('the lane of a repository', () => {
  it('runs one call at a time per repository, re-entrant within one call', async () => {
    expect(laneKey('/var/r/../repo/')).toBe(laneKey('/var/repo'));
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = inLane({ repository: '/var/repo' }, async () => {
      order.push('a start');
      // Nested in the same chain: no wait on itself.
      await inLane({ repository: '/var/repo/' }, async () => order.push('a nested'));
      await gate;
      order.push('a end');
    });
    const b = inLane({ repository: '/var/r/../repo' }, async () => order.push('b'));
    const other = inLane({ repository: '/var/other' }, async () => order.push('other'));
    await other;
    expect(lanesBusy()).toEqual([laneKey('/var/repo')]);
    release();
    await Promise.all([a, b]);
    expect(order).toEqual(['a start', 'a nested', 'other', 'a end', 'b']);
    expect(lanesBusy()).toEqual([]);
  });
});
