import MenuIcon from '@mui/icons-material/Menu';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import TranslateIcon from '@mui/icons-material/Translate';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { Link } from 'react-router-dom';
import { AccountMenu } from './AccountMenu';
import { ActingBanner } from './ActingBanner';
import { MENU_ICONS } from './icons';
import { LanguageMenu } from './LanguageMenu';
import { HEADER_SHORTCUTS } from './menus';
import { MessagesPanel } from './MessagesPanel';
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
}

function Shortcuts() {
  const translate = useTranslate();
  return (
    <Box
      component="nav"
      aria-label={translate('shell.header.shortcuts')}
      sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.25 }}
    >
      {HEADER_SHORTCUTS.map((entry) => {
        const Icon = MENU_ICONS[entry.icon];
        const label = translate(entry.label);
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

/** The shell's header (spec section 2): account, plan, photo, shortcuts, messages, language. */
export function Header({
  variant,
  title,
  section,
  onOpenMobileSidebar,
  onMessagesOpen,
}: HeaderProps) {
  const translate = useTranslate();
  const { user, isAdmin, acting } = useAccount();
  const photo = useUserPhoto(user);
  const userArea = variant === 'user';
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
        {userArea && <Shortcuts />}
        {userArea && showsUpgrade(user, isAdmin) && (
          <Button
            component={Link}
            to="/pricing"
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
        <MessagesPanel onOpen={onMessagesOpen} />
        <LanguageMenu compact startIcon={<TranslateIcon fontSize="small" />} />
        <AccountMenu
          user={user}
          isAdmin={isAdmin}
          photo={photo}
          shortcuts={userArea ? HEADER_SHORTCUTS : []}
          upgrade={userArea && showsUpgrade(user, isAdmin)}
        />
      </Toolbar>
    </AppBar>
  );
}
