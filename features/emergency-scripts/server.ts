import { defineServerFeature } from '../../server/feature';
import { notFound } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { emergencyScripts } from './resource';
import { SCRIPTS } from './scripts';
import * as runs from './serverMigration';
import { runScript } from './serverRun';

const scriptHandlers = defineHandlers(emergencyScripts, {
  list: async () => ({ data: [...SCRIPTS], total: SCRIPTS.length }),
  get: async (ctx) => {
    const found = SCRIPTS.find((s) => s.id === ctx.params.id);
    if (!found) throw notFound('No such script');
    return found;
  },
  actions: { run: runScript },
});

/** The admins' 911 tool (issue 26): the script library and its runs. */
export const server = defineServerFeature({
  handlers: [scriptHandlers],
  migrations: { '0059_emergency_runs': runs },
});
