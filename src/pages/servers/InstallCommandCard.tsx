import { useState } from 'react';
import { Box, Button, Collapse, Stack, Typography } from '@mui/material';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import { CopyButton } from '../../generic/CopyButton';
import { SectionCard } from '../../generic/SectionCard';

/** The one line to run as root, with a copy button; the whole script can be read first. */
export function InstallCommandCard({ command, script }: { command: string; script: string }) {
  const [showScript, setShowScript] = useState(false);
  return (
    <SectionCard
      id="install-command"
      title="Install command"
      subtitle="Run this as root on the server (Debian or Ubuntu). It installs the Stackdeck agent, which connects back to this panel."
      icon={TerminalOutlined}
    >
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
