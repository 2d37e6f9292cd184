import { Box, Typography } from '@mui/material';
import { DEFAULT_SYSTEM_USER } from '../../../resources/agent/validators';

/**
 * What connecting a server changes on it, said before it happens: each line is a step of the
 * install script (server/agents/installScript.ts) or of the server's first opening in the panel
 * (src/pages/server/useServerOpening.ts). Keep it in step with them.
 */
export const INSTALL_CHANGES = [
  'Node.js from the distribution’s packages (apt-get install nodejs), only when Node.js 18 or newer is missing.',
  'The Stackdeck agent in /opt/stackdeck (the agent and its uninstall script) and its key in /etc/stackdeck/agent.json, readable by root only.',
  'The stackdeck-agent service (/etc/systemd/system/stackdeck-agent.service, or /etc/init.d/stackdeck-agent without systemd), started now and at every boot.',
  `When you first open the server here: a system user ${DEFAULT_SYSTEM_USER} for your apps, with a generated password shown once.`,
  'root’s password stays as it is, unless you tick “Set a root password” below.',
] as const;

export function InstallChanges() {
  return (
    <Box component="section" aria-labelledby="install-changes" sx={{ mt: 1, mb: 2 }}>
      <Typography id="install-changes" variant="subtitle2" component="h2" sx={{ mb: 0.5 }}>
        What the install changes on the server
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {INSTALL_CHANGES.map((line) => (
          <Typography component="li" variant="body2" color="text.secondary" key={line}>
            {line}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
