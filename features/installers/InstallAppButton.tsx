import { useState } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import { Link } from 'react-router-dom';
import { INSTALLERS } from './links';

/** "Install an app": a menu of the one-click installers, each opening its page. */
export function InstallAppButton({ sid }: { sid: number | string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<AppsOutlined />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        Install an app
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {INSTALLERS.map((installer) => (
          <MenuItem key={installer.app} component={Link} to={installer.path(sid)}>
            {installer.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
