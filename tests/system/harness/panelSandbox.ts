import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from '../../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './panel';

/** The file's panel, its sandbox server and that server's record, once `beforeAll` made them. */
export interface PanelSandbox {
  readonly panel: Panel;
  readonly sb: Sandbox;
  readonly server: ServerRecord;
  /** A bash script inside the sandbox, which must succeed: its output, trimmed. */
  sh(script: string): Promise<string>;
}

/**
 * The set-up a system test file opens with: a real panel and one sandbox installed with the
 * server's own install command (`installedSandbox`), shared by the file's tests, stopped after
 * them. Call it at the top of the file: its `beforeAll` runs before the file's own, which may
 * then use what it made.
 */
export function usePanelSandbox(
  name: string,
  services: string[],
  options?: Parameters<typeof installedSandbox>[3],
): PanelSandbox {
  let made: { panel: Panel; sb?: Sandbox; server?: ServerRecord } | undefined;
  const ready = () => {
    if (!made?.sb || !made.server) throw new Error(`The ${name} sandbox is not set up`);
    return { panel: made.panel, sb: made.sb, server: made.server };
  };
  beforeAll(async () => {
    made = { panel: await startPanel() };
    Object.assign(made, await installedSandbox(made.panel, name, services, options));
  });
  afterAll(async () => {
    await made?.sb?.stop();
    await made?.panel.close();
  });
  return {
    get panel() {
      return ready().panel;
    },
    get sb() {
      return ready().sb;
    },
    get server() {
      return ready().server;
    },
    sh: async (script) => (await ready().sb.execOk(['bash', '-c', script])).stdout.trim(),
  };
}
