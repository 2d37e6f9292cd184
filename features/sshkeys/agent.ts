import { defineAgentFeature } from '../../agent/ops/types';
import { pubkeysOps } from './agentPubkeys';
import { sshconfigOps } from './agentSshconfig';
import { ops } from './resource';

/**
 * SSH keys and settings: a user's authorized_keys under `authorized_keys:<user>`, and sshd's
 * config with its service (`sshd_config`, `service:sshd`: the settings write the config and
 * reload the service).
 */
export const agent = defineAgentFeature(ops, {
  ops: { ...pubkeysOps, ...sshconfigOps },
  locks: {
    'pubkeys.add': ({ user_name }) => [`authorized_keys:${user_name}`],
    'pubkeys.remove': ({ user_name }) => [`authorized_keys:${user_name}`],
    'sshconfig.set': () => ['sshd_config', 'service:sshd'],
  },
});
