/**
 * The clone's event (server/events): the features that hang rows under an app copy theirs,
 * each in its own folder, so the clone imports none of them.
 */
import type { Before, EventDeclarations } from '../../server/events/types';
import type { HandlerContext } from '../../server/http/handlers';
import type { Step } from '../installers/serverApi';
import type { WebappRow } from '../webapps/serverApi';

/** What a feature copies once the copy's app holds the source's files and databases. */
export type CloneSteps = (made: { copy: WebappRow; taskId: number }) => Step[];

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * A clone of `source` named `name` is about to start (`POST clone-webapp/...`), before its
     * task: a feature that cannot copy its part refuses here (its error, a 409, is the answer
     * and nothing is made); one that has something to copy reads it now and adds the task's
     * steps that copy it (`addSteps`), run in the features' order once the copy's app holds the
     * source's files and databases (the source's cron jobs; a Node.js app's port and program).
     * Each step undoes itself; a failed one fails the clone, whose undo removes the copy.
     */
    'app.cloning': Before<{
      ctx: HandlerContext;
      source: WebappRow;
      name: string;
      addSteps(steps: CloneSteps): void;
    }>;
  }
}

export const cloneEvents: EventDeclarations = { 'app.cloning': 'before' };
