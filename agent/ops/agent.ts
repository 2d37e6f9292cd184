import fs from 'node:fs/promises';
import { runningOps } from '../opServer';
import { later } from './system';
import type { OpTable } from './types';

const UNINSTALL_SCRIPT = '/opt/stackdeck/uninstall.sh';

export const agentOps: Pick<OpTable, 'agent.uninstall' | 'agent.running'> = {
  async 'agent.running'(_args, ctx) {
    return { ops: [...runningOps].filter((id) => id !== ctx?.opId) };
  },
  /** Answers first; the installer's own removal script then stops the service and deletes it. */
  async 'agent.uninstall'() {
    await fs.access(UNINSTALL_SCRIPT);
    later('/bin/sh', [UNINSTALL_SCRIPT]);
    return { uninstalling: true as const };
  },
};
