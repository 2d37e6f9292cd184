/**
 * The lifecycle events of a web app (server/events): raised here, handled by the features that
 * hang rows under an app (cron jobs, FTP accounts, databases, a Node.js program), each in its
 * own folder, so this feature imports none of them.
 */
import type { Before, EventDeclarations } from '../../server/events/types';
import type { HandlerContext } from '../../server/http/handlers';
import type { WebappRow } from './serverTable';

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * The app is about to be removed (a parent's child apps first, each on its own, before it):
     * what hangs under it leaves its server first — its cron jobs, FTP accounts, and its
     * databases and database users when the delete asked for them (`databases`). `ctx` is the
     * delete's (its caller and server). A subscriber's error keeps the app, and is the answer.
     */
    'app.deleting': Before<{ ctx: HandlerContext; app: WebappRow; databases: boolean }>;
    /**
     * The app's own files were written again from the panel (`PATCH webstacks/rebuild`), and its
     * server holds them: what another feature generates for it is written again too (a Node.js
     * app's supervisor program). A subscriber's error is the rebuild's answer.
     */
    'app.rebuilding': Before<{ ctx: HandlerContext; app: WebappRow }>;
  }
}

export const webappEvents: EventDeclarations = {
  'app.deleting': 'before',
  'app.rebuilding': 'before',
};
