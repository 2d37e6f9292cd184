import { type AgentFeature, defineAgentFeature } from '../../agent/ops/types';
import { diskUsage, freeDisk } from './agentDisk';
import { unlockPackageManager } from './agentPackages';
import { restartDatabase, restartWebStack } from './agentServices';
import { ops } from './resource';

const scriptOps: AgentFeature<typeof ops>['ops'] = {
  'emergency.restart-web-stack': (_args, ctx) => restartWebStack(ctx),
  'emergency.free-disk': (args, ctx) => freeDisk(ctx, args),
  'emergency.unlock-package-manager': (args, ctx) => unlockPackageManager(ctx, args),
  'emergency.restart-database': (_args, ctx) => restartDatabase(ctx),
  'emergency.disk-usage': (_args, ctx) => diskUsage(ctx),
};

/**
 * The 911 scripts: fixed procedures, argv only. They hold the locks of what they touch, so a
 * vhost change, a service change or a package job of another feature waits for them (and they
 * for it).
 */
export const agent = defineAgentFeature(ops, {
  ops: scriptOps,
  locks: {
    'emergency.restart-web-stack': () => ['webserver', 'service:nginx', 'service:php-fpm'],
    'emergency.restart-database': () => ['service:mariadb'],
    'emergency.free-disk': () => ['apt'],
    // No `apt` lock: a package op of the agent itself that hangs is what this script frees.
  },
});
