import DnsOutlined from '@mui/icons-material/DnsOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import MoreVert from '@mui/icons-material/MoreVert';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import TranslateIcon from '@mui/icons-material/Translate';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { AccountMenu } from './AccountMenu';
import { ActingBanner } from './ActingBanner';
import { iconOf } from './icons';
import { LanguageMenu } from './LanguageMenu';
import { UPGRADE_PATH, hasPage, shownShortcuts } from './buildMenu';
import { useMenuLabel } from './menuLabel';
import type { MenuEntry } from './menuTypes';
import { MessagesPanel } from './MessagesPanel';
import { USER_HOME } from '../routes/guard';
import { showsUpgrade } from './plan';
import { useAccount, useUserPhoto } from './useAccount';

interface HeaderProps {
  /** The admin area's header leaves out the account shortcuts and the upgrade offer. */
  variant: 'user' | 'admin';
  title: string;
  /** The area the page belongs to, shown before the title. */
  section?: string;
  onOpenMobileSidebar?: () => void;
  /** Called when the messages panel opens. */
  onMessagesOpen?: () => void;
  /** The server layout's server: the messages panel shows its activity logs too. */
  serverId?: number;
}

function Shortcuts({ entries }: { entries: readonly MenuEntry[] }) {
  const translate = useTranslate();
  const labelOf = useMenuLabel();
  return (
    <Box
      component="nav"
      aria-label={translate('shell.header.shortcuts')}
      sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.25 }}
    >
      {entries.map((entry) => {
        const Icon = iconOf(entry.icon);
        const label = labelOf(entry.label);
        return (
          <Tooltip key={entry.key} title={label}>
            <Button
              component={Link}
              to={entry.path}
              color="inherit"
              size="small"
              aria-label={label}
              startIcon={<Icon fontSize="small" />}
              sx={{
                color: 'text.secondary',
                minWidth: 0,
                px: 1.25,
                '& .MuiButton-startIcon': { mr: { md: 0, xl: 0.75 } },
              }}
            >
              {/* Labels where the bar has room; icons with tooltips on smaller screens. */}
              <Box component="span" sx={{ display: { xs: 'none', xl: 'inline' } }}>
                {label}
              </Box>
            </Button>
          </Tooltip>
        );
      })}
    </Box>
  );
}

/**
 * Below the md breakpoint the bar has no room for the shortcuts: one overflow button keeps
 * them (and Upgrade to Pro, on phones) a tap away.
 */
function ShortcutsOverflow({
  entries,
  upgrade,
}: {
  entries: readonly MenuEntry[];
  upgrade: boolean;
}) {
  const translate = useTranslate();
  const labelOf = useMenuLabel();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  if (entries.length === 0 && !upgrade) return null;
  const label = translate('shell.header.moreShortcuts');
  return (
    <Box sx={{ display: { xs: 'block', md: 'none' } }}>
      <Tooltip title={label}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={label}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
        >
          <MoreVert />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220, mt: 1 } }, list: { 'aria-label': label } }}
      >
        {entries.map((entry) => {
          const Icon = iconOf(entry.icon);
          return (
            <MenuItem key={entry.key} component={Link} to={entry.path} onClick={close}>
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              {labelOf(entry.label)}
            </MenuItem>
          );
        })}
        {upgrade && (
          <MenuItem
            component={Link}
            to={UPGRADE_PATH}
            onClick={close}
            sx={{ display: { sm: 'none' } }}
          >
            <ListItemIcon>
              <RocketLaunchOutlined fontSize="small" color="primary" />
            </ListItemIcon>
            {translate('shell.header.upgrade')}
          </MenuItem>
        )}
      </Menu>
    </Box>
  );
}

/** The shell's header (spec section 2): account, plan, photo, shortcuts, messages, language. */
export function Header({
  variant,
  title,
  section,
  onOpenMobileSidebar,
  onMessagesOpen,
  serverId,
}: HeaderProps) {
  const translate = useTranslate();
  const { user, isAdmin, isStaff, acting } = useAccount();
  const photo = useUserPhoto(user);
  const userArea = variant === 'user';
  // Only shortcuts whose page exists; Upgrade to Pro once the pricing page does.
  const shortcuts = useMemo(
    () => (userArea ? shownShortcuts({ isAdmin, isStaff }) : []),
    [userArea, isAdmin, isStaff],
  );
  const upgrade =
    userArea && showsUpgrade(user, isAdmin) && hasPage(UPGRADE_PATH, { isAdmin, isStaff });
  return (
    <AppBar position="sticky" sx={{ zIndex: (theme) => theme.zIndex.appBar }}>
      {acting && <ActingBanner name={user?.user_name ?? ''} />}
      <Toolbar sx={{ gap: 1, minHeight: { xs: 60, sm: 64 } }}>
        {onOpenMobileSidebar && (
          <IconButton
            edge="start"
            onClick={onOpenMobileSidebar}
            aria-label={translate('shell.header.openSidebar')}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'baseline', gap: 1 }}>
          {section && (
            <Typography
              variant="body2"
              color="text.secondary"
              noWrap
              sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 500, flexShrink: 0 }}
            >
              {section} /
            </Typography>
          )}
          <Typography component="p" variant="h6" noWrap sx={{ fontWeight: 700 }}>
            {title}
          </Typography>
        </Box>
        {!userArea && (
          // An admin's own servers are a user page: one click back to them from the admin area.
          <Button
            component={Link}
            to={USER_HOME}
            color="inherit"
            size="small"
            startIcon={<DnsOutlined fontSize="small" />}
            sx={{ color: 'text.secondary' }}
          >
            {translate('shell.header.myServers')}
          </Button>
        )}
        <Shortcuts entries={shortcuts} />
        <ShortcutsOverflow entries={shortcuts} upgrade={upgrade} />
        {upgrade && (
          <Button
            component={Link}
            to={UPGRADE_PATH}
            variant="contained"
            size="small"
            startIcon={<RocketLaunchOutlined fontSize="small" />}
            sx={{
              display: { xs: 'none', sm: 'inline-flex' },
              background: 'linear-gradient(135deg,#4f46e5,#7c3aed)',
            }}
          >
            {translate('shell.header.upgrade')}
          </Button>
        )}
        <MessagesPanel serverId={serverId} onOpen={onMessagesOpen} />
        <LanguageMenu compact startIcon={<TranslateIcon fontSize="small" />} />
        <AccountMenu user={user} isAdmin={isAdmin} photo={photo} />
      </Toolbar>
    </AppBar>
  );
}
