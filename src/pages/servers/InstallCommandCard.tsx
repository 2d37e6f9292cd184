import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Collapse, Stack, Typography } from '@mui/material';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import { CopyButton } from '../../generic/CopyButton';
import { SectionCard } from '../../generic/SectionCard';
import { panelUrlOf, panelUrlProblems } from './panelUrl';

const code = { fontFamily: 'monospace', fontSize: '0.95em' } as const;

/**
 * What is wrong with the address the command points at (PUBLIC_URL): a loopback address another
 * machine cannot reach (PUBLIC_URL unset), and plain http that carries the agent's key in clear.
 */
function PanelUrlNotices({ panelUrl }: { panelUrl: string }) {
  const { unreachable, plainHttp } = panelUrlProblems(panelUrl);
  return (
    <>
      {unreachable ? (
        <Alert severity="warning" data-testid="panel-url-unreachable" sx={{ mb: 2 }}>
          <AlertTitle>A server elsewhere cannot reach {panelUrl}</AlertTitle>
          The command points at{' '}
          <Box component="span" sx={code}>
            {panelUrl}
          </Box>
          , this panel&apos;s own machine: run on another server, it would reach that server itself
          and fail. Start the panel with{' '}
          <Box component="span" sx={code}>
            PUBLIC_URL
          </Box>{' '}
          set to an address your servers can reach (for example{' '}
          <Box component="span" sx={code}>
            PUBLIC_URL=https://panel.example.com
          </Box>
          ; see Configuration in the README), then open this page again for a new command.
        </Alert>
      ) : null}
      {plainHttp ? (
        <Alert severity="warning" data-testid="panel-url-plain-http" sx={{ mb: 2 }}>
          <AlertTitle>The agent&apos;s key would travel unencrypted</AlertTitle>
          This panel is reached over plain http: the install fetches the agent&apos;s key and the
          agent uses it over a connection anyone on the way can read. Serve the panel over HTTPS (a
          reverse proxy with a certificate) and set{' '}
          <Box component="span" sx={code}>
            PUBLIC_URL
          </Box>{' '}
          to its https:// address.
        </Alert>
      ) : null}
    </>
  );
}

/** The one line to run as root, with a copy button; the whole script can be read first. */
export function InstallCommandCard({ command, script }: { command: string; script: string }) {
  const [showScript, setShowScript] = useState(false);
  const panelUrl = panelUrlOf(command);
  return (
    <SectionCard
      id="install-command"
      title="Install command"
      subtitle="Run this as root on the server (Debian or Ubuntu). It installs the Stackdeck agent, which connects back to this panel."
      icon={TerminalOutlined}
    >
      {panelUrl ? <PanelUrlNotices panelUrl={panelUrl} /> : null}
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
          bgcolor: 'action.hover',
          borderRadius: 1,
          pl: 2,
          pr: 1,
          py: 1,
        }}
      >
        <Typography
          data-testid="install-command"
          sx={{ fontFamily: 'monospace', fontSize: 14, wordBreak: 'break-all', flex: 1 }}
        >
          {command}
        </Typography>
        <CopyButton value={command} label="Copy the install command" />
      </Stack>
      <Box sx={{ mt: 2 }}>
        <Button
          size="small"
          onClick={() => setShowScript((open) => !open)}
          aria-expanded={showScript}
          aria-controls="install-script"
        >
          {showScript ? 'Hide the script' : 'View the script'}
        </Button>
        <Collapse in={showScript} unmountOnExit>
          <Box
            id="install-script"
            component="pre"
            aria-label="Install script"
            tabIndex={0}
            sx={{
              mt: 1,
              p: 2,
              maxHeight: 420,
              overflow: 'auto',
              fontSize: 12,
              bgcolor: 'grey.900',
              color: 'grey.100',
              borderRadius: 1,
            }}
          >
            {script}
          </Box>
        </Collapse>
      </Box>
    </SectionCard>
  );
}
