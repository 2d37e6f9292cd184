import { useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Check from '@mui/icons-material/Check';

/** Copies `value`; the tooltip confirms. Labelled for screen readers by what it copies. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (insecure origin): the value stays selectable on the page.
      setCopied(false);
    }
  };
  return (
    <Tooltip title={copied ? 'Copied' : label}>
      <IconButton aria-label={label} onClick={copy} size="small">
        {copied ? <Check fontSize="small" color="success" /> : <ContentCopy fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}
