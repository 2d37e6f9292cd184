/**
 * What the mail system tests share: the agent's ops called through the panel for the file's
 * server, and mailbox password hashes as the panel makes them.
 */
import type { OpArgs, OpName, OpResult } from '../../../resources/agent/ops';
import type { Panel, ServerRecord } from '../harness/panel';

export { hashMailPassword as hash } from '../../../features/mail/serverPassword';

/**
 * `call(name, args)` on the server the test set up: `at` is read at each call, as the panel
 * and the server exist only after the file's beforeAll.
 */
export function opCaller(at: () => { panel: Panel; server: ServerRecord }) {
  return <N extends OpName>(name: N, args: OpArgs<N>): Promise<OpResult<N>> => {
    const { panel, server } = at();
    return panel.t.app.agents.call(server.id, name, args);
  };
}
