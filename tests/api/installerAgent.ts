import type { Db } from '../../server/db/database';
import type { TestUser } from './helpers';
import type { LiveApp } from './liveApp';

/**
 * What the installer API tests share: the fake server's answers for the web app and its
 * database (the steps every install makes before its own), a catalogue release, and waiting
 * for a task to end as a client would, through `clone-events`.
 */
const ok =
  <T>(value: T) =>
  () =>
    value;

/** The ops of the app, database and database user steps, answering as a server would. */
export const appStepOps = () => ({
  'webapp.apply': (a: { name: string; user: string }) => ({
    path: `/home/${a.user}/apps/${a.name}`,
  }),
  'webapp.remove': ok({ removed: true }),
  'mariadb.db.set': ok({ set: true }),
  'mariadb.db.drop': ok({ dropped: true }),
  'mariadb.user.set': ok({ set: true }),
  'mariadb.user.drop': ok({ dropped: true }),
  'release.fetch': (a: { dest_dir: string }) => ({ path: a.dest_dir, files: 1, bytes: 1 }),
});

export { ok };

/** A default release of the app in the catalogue (never downloaded: the agent is a fake). */
export async function addRelease(
  db: Db,
  app: string,
  release: { version?: string; format?: 'zip' | 'tar.gz'; sha256?: string } = {},
) {
  const stamp = new Date().toISOString();
  const format = release.format ?? 'zip';
  await db
    .insertInto('app_releases')
    .values({
      app,
      version: release.version ?? '1.0',
      url: `http://127.0.0.1:1/${app}.${format}`,
      sha256: release.sha256 ?? 'c'.repeat(64),
      size: null,
      format,
      is_default: 1,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

export interface TaskSeen {
  status: string;
  kind: string;
  events: { event: string; code: number }[];
}

/** The task as `clone-events?id=` shows it, once it is no longer running (or after ~4 s). */
export async function settledTask(live: LiveApp, owner: TestUser, taskId: number) {
  let task: TaskSeen = { status: 'running', kind: '', events: [] };
  for (let i = 0; i < 200 && task.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const res = await live.t.call('GET', `/api/v1/clone-events/users/${owner.id}?id=${taskId}`, {
      token: owner.token,
    });
    task = res.json().data[0] as TaskSeen;
  }
  return task;
}
