import { defineAgentFeature } from '../../agent/ops/types';
import { appLogPath } from '../webapps/api';
import { readLogPage } from './agentPaging';
import { LOG_PAGE_SIZE, ops } from './resource';

/**
 * A page of an app's log. The path is built from allowlisted values only (the app's name, the
 * server, the type) under the panel's own log folder, and opened without following a link.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'weblog.page'({ app, server, type, page }) {
      return readLogPage(appLogPath(app, server, type), page, LOG_PAGE_SIZE);
    },
  },
});
