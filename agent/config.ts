import fs from 'node:fs';
import { z } from 'zod';

/** Written root-only by the install script. */
export const CONFIG_FILE = process.env.STACKDECK_AGENT_CONFIG ?? '/etc/stackdeck/agent.json';

const configSchema = z.object({
  panel_url: z.url(),
  key: z.string().min(32).max(128),
});
export type AgentConfig = z.infer<typeof configSchema>;

export function loadConfig(file = CONFIG_FILE): AgentConfig {
  const parsed = configSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a valid agent configuration`);
  return parsed.data;
}
