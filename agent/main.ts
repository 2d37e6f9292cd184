import { loadConfig } from './config';
import { connectAgent } from './connection';
import { AGENT_VERSION } from './version';

/** The agent: `node /opt/stackdeck/agent.mjs`, run by systemd or the init.d script. */
const log = {
  info: (message: string) => console.log(`${new Date().toISOString()} ${message}`),
  warn: (message: string) => console.warn(`${new Date().toISOString()} ${message}`),
};

const config = loadConfig();
log.info(`stackdeck agent ${AGENT_VERSION} starting`);
const agent = connectAgent(config, log);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    agent.stop();
    process.exit(0);
  });
}
