/**
 * The lifecycle events of a database (server/events): raised here, handled by the features that
 * keep rows about a database (backups), so this feature imports none of them.
 */
import type { Before, EventDeclarations } from '../../server/events/types';
import type { HandlerContext } from '../../server/http/handlers';
import type { DatabaseRow } from './serverTable';

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * The database is about to be deleted on its own (`DELETE databases/{dbId}`); an app's
     * databases deleted with the app are in `app.deleting`'s `databases`. `ctx` is the
     * delete's. A subscriber's error keeps the database, and is the answer.
     */
    'database.deleting': Before<{ ctx: HandlerContext; database: DatabaseRow }>;
  }
}

export const databaseEvents: EventDeclarations = {
  'database.deleting': 'before',
};
