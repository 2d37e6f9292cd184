import Box from '@mui/material/Box';
import { useQueryClient } from '@tanstack/react-query';
import { useStore, useTranslate } from 'ra-core';
import { type ReactNode, Suspense, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { matchRoute, routeIds } from '../routes/match';
import { Footer } from '../shell/Footer';
import { Header } from '../shell/Header';
import { buildMenu } from '../shell/buildMenu';
import type { MenuName } from '../shell/menus';
import { Sidebar } from '../shell/Sidebar';
import { useAccount } from '../shell/useAccount';
import { useWordPressMenu } from '../shell/WebAppInfo';
import { LoadingScreen } from './LoadingScreen';

export interface ShellFrameProps {
  /** The layout's sidebar; a route may name another (RouteDef.sidebar). */
  menu: MenuName | null;
  variant?: 'user' | 'admin';
  /** Hidden on the file manager and the file editor (spec section 2). */
  footer?: boolean;
  /** A strip under the header (the file manager's app facts). */
  strip?: ReactNode;
  children: ReactNode;
}

/**
 * What every signed-in layout shares: header, sidebar, content, footer. The sidebar's
 * collapse is a toggle kept in the store; the phone drawer is a toggle of its own.
 */
export function ShellFrame({
  menu,
  variant = 'user',
  footer = true,
  strip,
  children,
}: ShellFrameProps) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const match = useMemo(() => matchRoute(pathname), [pathname]);
  const { isAdmin, isStaff } = useAccount();
  const wordpress = useWordPressMenu();
  const [collapsed, setCollapsed] = useStore('shell.sidebar.collapsed', false);
  const [mobileOpen, setMobileOpen] = useState(false);

  const menuName = match?.route.sidebar ?? menu;
  const { serverId, webAppId } = routeIds(match?.params ?? {});
  const items = useMemo(() => {
    if (!menuName) return [];
    const context = { serverId, webAppId, isWordPress: wordpress, isAdmin, isStaff };
    return buildMenu(menuName, context);
  }, [menuName, serverId, webAppId, wordpress, isAdmin, isStaff]);
  const title = match
    ? translate(`shell.titles.${match.route.title}`, { _: match.route.title })
    : '';
  // Admin staff cannot open the admin dashboard: their admin home is the user list.
  const adminHome = isAdmin && !isStaff ? '/admin/dashboard' : '/admin/users';
  const homeTo = variant === 'admin' ? adminHome : '/dashboard';

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="a"
        href="#main-content"
        sx={{
          position: 'absolute',
          left: -9999,
          '&:focus': {
            left: 16,
            top: 16,
            zIndex: 2000,
            bgcolor: 'background.paper',
            p: 1,
            borderRadius: 1,
          },
        }}
      >
        {translate('shell.skipToContent')}
      </Box>
      {menuName && (
        <Sidebar
          title={translate(`shell.menuTitle.${menuName}`)}
          items={items}
          homeTo={homeTo}
          collapsed={collapsed}
          onToggleCollapse={() => setCollapsed(!collapsed)}
          mobileOpen={mobileOpen}
          onMobileClose={() => setMobileOpen(false)}
        />
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Header
          variant={variant}
          title={title}
          section={menuName ? translate(`shell.menuTitle.${menuName}`) : undefined}
          onOpenMobileSidebar={menuName ? () => setMobileOpen(true) : undefined}
          serverId={menuName === 'server' && serverId ? Number(serverId) || undefined : undefined}
          onMessagesOpen={
            // In the server layout the messages panel also loads the activity logs (spec 2).
            menuName === 'server'
              ? () =>
                  void queryClient.invalidateQueries({
                    queryKey: ['server-activity'],
                    refetchType: 'all',
                  })
              : undefined
          }
        />
        {strip}
        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{ flex: 1, p: { xs: 2, sm: 3, lg: 4 }, outline: 'none' }}
        >
          <Suspense fallback={<LoadingScreen fullPage={false} />}>{children}</Suspense>
        </Box>
        {footer && <Footer homeTo={homeTo} />}
      </Box>
    </Box>
  );
}
