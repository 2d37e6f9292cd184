import type { HandlerContext } from '../../server/http/handlers';
import type { AppRelease } from '../releases/api';
import { fetchUrlOf, isDebianApp } from '../releases/serverApi';
import type { WebappRow } from '../webapps/serverApi';
import { RELEASE_DIR } from './names';
import type { Step } from './serverSteps';
import { appPath, stepOp } from './serverStepOp';

/**
 * The step that puts the catalogue's release into the app's release folder: downloaded and
 * unpacked (the agent refuses it unless its SHA-256 is the pinned one), or, from the Debian
 * source, copied from Debian's package on the server (installed first when missing).
 */
export const fetchStep = (
  ctx: HandlerContext,
  made: { app: WebappRow; release: AppRelease; taskId: number },
  label: string,
): Step => {
  const { app, release } = made;
  const which = release.app;
  if (release.source === 'debian' && isDebianApp(which))
    return {
      event: `Copying ${label} from Debian’s package`,
      code: 4,
      run: async () =>
        void (await stepOp(ctx, made.taskId, 'release.debian', {
          app: which,
          dest_user: app.sys_user,
          dest_dir: `${appPath(app)}/${RELEASE_DIR}`,
        })),
    };
  return downloadStep(ctx, made, label);
};

const downloadStep = (
  ctx: HandlerContext,
  made: { app: WebappRow; release: AppRelease; taskId: number },
  label: string,
): Step => ({
  event: `Downloading ${label} ${made.release.version}`,
  code: 4,
  run: async () =>
    void (await stepOp(ctx, made.taskId, 'release.fetch', {
      // The admin's mirror when one is set; the pinned SHA-256 is checked all the same.
      url: await fetchUrlOf(ctx.app.db, made.release),
      sha256: made.release.sha256,
      format: made.release.format,
      dest_user: made.app.sys_user,
      dest_dir: `${appPath(made.app)}/${RELEASE_DIR}`,
    })),
});
