import { TASK_KINDS, cloneEvents } from '../../resources/clone-events';
import { defineHandlers } from '../http/handlers';

export const cloneEventHandlers = defineHandlers(cloneEvents, {
  list: (ctx) => ctx.app.services.tasks.listWithEvents(ctx.uid, TASK_KINDS, ctx.query),
  actions: {},
});
