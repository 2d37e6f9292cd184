import { defineServerFeature } from '../../server/feature';
import { appTasksMigration, recoverStoppedTasks } from './serverRecover';

/**
 * The installers' own panel part: no routes (each app's folder has its own), the record of
 * which panel runs which install or clone, and the sweep that undoes those a stopped panel left.
 */
export const server = defineServerFeature({
  handlers: [],
  migrations: { '0026_app_tasks': appTasksMigration },
  sweep: (app) => recoverStoppedTasks(app),
});
