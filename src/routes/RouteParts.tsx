import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { LAYOUTS } from '../layouts';
import { LoadingScreen } from '../layouts/LoadingScreen';
import { lazyPage } from './lazyPage';
import { routes } from './table';
import type { LayoutName, RouteDef } from './types';

/** One lazy component per route entry, made once: React.lazy must not be re-created per render. */
const PAGES = new Map(routes.map((route) => [route, lazyPage(route.page)]));

/** The layout of a group of routes; it stays mounted while the user moves between its pages. */
export function RouteLayout({ name }: { name: LayoutName }) {
  const Layout = LAYOUTS[name];
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Layout>
        <Outlet />
      </Layout>
    </Suspense>
  );
}

export function RoutePage({ route }: { route: RouteDef }) {
  const translate = useTranslate();
  const Page = PAGES.get(route)!;
  const title = translate(`shell.titles.${route.title}`, { _: route.title });
  useEffect(() => {
    document.title = `${title} · Stackdeck`;
  }, [title]);
  return (
    <Suspense fallback={<LoadingScreen fullPage={route.layout === 'plain'} />}>
      <Page />
    </Suspense>
  );
}
