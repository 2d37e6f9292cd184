import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { Link, NavLink } from 'react-router-dom';
import { SIDEBAR_BG, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from '../theme';
import { BrandMark } from './BrandMark';
import { iconOf } from './icons';
import { useMenuLabel } from './menuLabel';
import type { MenuItem } from './buildMenu';

interface SidebarProps {
  title: string;
  items: readonly MenuItem[];
  homeTo: string;
  collapsed: boolean;
  onToggleCollapse: () => void;
  mobileOpen: boolean;
  onMobileClose: () => void;
}

function MenuLink({
  item,
  collapsed,
  onNavigate,
}: {
  item: MenuItem;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const labelOf = useMenuLabel();
  const Icon = iconOf(item.icon);
  const label = labelOf(item.label);
  const button = (
    <ListItemButton
      component={NavLink}
      to={item.to}
      onClick={onNavigate}
      aria-label={collapsed ? label : undefined}
      sx={{
        mx: 1.25,
        my: 0.25,
        minHeight: 42,
        borderRadius: 2,
        px: collapsed ? 1.5 : 1.75,
        justifyContent: collapsed ? 'center' : 'flex-start',
        color: 'rgba(226,232,240,0.82)',
        '&:hover': { bgcolor: 'rgba(148,163,184,0.12)', color: '#fff' },
        '&.active': {
          bgcolor: 'primary.main',
          color: '#fff',
          boxShadow: '0 6px 16px rgba(79,70,229,0.35)',
        },
        '&.active .MuiListItemIcon-root': { color: '#fff' },
      }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36, color: 'rgba(148,163,184,0.95)' }}>
        <Icon fontSize="small" />
      </ListItemIcon>
      {!collapsed && (
        <ListItemText
          primary={label}
          slotProps={{ primary: { fontSize: 14, fontWeight: 500, noWrap: true } }}
        />
      )}
    </ListItemButton>
  );
  // Each link in its own <li>: a screen reader announces the menu as a list of n entries.
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {collapsed ? (
        <Tooltip title={label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}

function SidebarContent(
  props: SidebarProps & { collapsed: boolean; onNavigate?: () => void; showToggle: boolean },
) {
  const translate = useTranslate();
  const { collapsed, items, onNavigate } = props;
  const back = items.filter((item) => item.back);
  const main = items.filter((item) => !item.back);
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        bgcolor: SIDEBAR_BG,
        color: '#e2e8f0',
      }}
    >
      <Box
        component={Link}
        to={props.homeTo}
        onClick={onNavigate}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: collapsed ? 2.5 : 2.75,
          height: 64,
          color: '#fff',
          textDecoration: 'none',
          flexShrink: 0,
        }}
      >
        <BrandMark size={30} />
        {!collapsed && (
          <Typography sx={{ fontWeight: 750, fontSize: 18, letterSpacing: '-0.01em' }}>
            {translate('shell.brand')}
          </Typography>
        )}
      </Box>
      <Divider sx={{ borderColor: 'rgba(148,163,184,0.16)' }} />
      <Box
        component="nav"
        aria-label={props.title}
        sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden', py: 1.5 }}
      >
        {back.length > 0 && (
          <List dense disablePadding sx={{ mb: 1 }}>
            {back.map((item) => (
              <MenuLink key={item.key} item={item} collapsed={collapsed} onNavigate={onNavigate} />
            ))}
          </List>
        )}
        {!collapsed && (
          <Typography
            variant="overline"
            sx={{
              px: 3,
              color: 'rgba(148,163,184,0.8)',
              fontWeight: 700,
              letterSpacing: '0.08em',
              display: 'block',
            }}
          >
            {props.title}
          </Typography>
        )}
        <List dense disablePadding>
          {main.map((item) => (
            <MenuLink key={item.key} item={item} collapsed={collapsed} onNavigate={onNavigate} />
          ))}
        </List>
      </Box>
      {props.showToggle && (
        <Box
          sx={{
            p: 1.25,
            display: 'flex',
            justifyContent: collapsed ? 'center' : 'flex-end',
            borderTop: '1px solid rgba(148,163,184,0.16)',
          }}
        >
          <Tooltip
            title={translate(
              collapsed ? 'shell.header.expandSidebar' : 'shell.header.collapseSidebar',
            )}
            placement="right"
          >
            <IconButton
              onClick={props.onToggleCollapse}
              aria-label={translate(
                collapsed ? 'shell.header.expandSidebar' : 'shell.header.collapseSidebar',
              )}
              aria-expanded={!collapsed}
              size="small"
              sx={{ color: 'rgba(226,232,240,0.8)' }}
            >
              {collapsed ? <ChevronRight /> : <ChevronLeft />}
            </IconButton>
          </Tooltip>
        </Box>
      )}
    </Box>
  );
}

/** The layout's sidebar: a permanent rail on wide screens (collapsible), a drawer on phones. */
export function Sidebar(props: SidebarProps) {
  const width = props.collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  return (
    <>
      <Drawer
        variant="temporary"
        open={props.mobileOpen}
        onClose={props.onMobileClose}
        ModalProps={{ keepMounted: true }}
        sx={{
          display: { xs: 'block', md: 'none' },
          '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, border: 0 },
        }}
        slotProps={{ paper: { 'data-testid': 'mobile-sidebar' } as object }}
      >
        <SidebarContent
          {...props}
          collapsed={false}
          onNavigate={props.onMobileClose}
          showToggle={false}
        />
      </Drawer>
      <Drawer
        variant="permanent"
        open
        sx={{
          display: { xs: 'none', md: 'block' },
          width,
          flexShrink: 0,
          transition: 'width 160ms ease',
          '& .MuiDrawer-paper': {
            width,
            border: 0,
            overflowX: 'hidden',
            transition: 'width 160ms ease',
          },
        }}
        slotProps={{ paper: { 'data-testid': 'sidebar' } as object }}
      >
        <SidebarContent {...props} showToggle />
      </Drawer>
    </>
  );
}
