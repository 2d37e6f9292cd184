import { Navigate, Route } from 'react-router-dom';
import { NavigationGuard } from './NavigationGuard';
import { RouteLayout, RoutePage } from './RouteParts';
import { routes } from './table';
import type { LayoutName } from './types';

const layoutsInUse = [...new Set(routes.map((route) => route.layout))] as LayoutName[];

/**
 * The route table as react-router elements for `<CustomRoutes noLayout>`: the guard around
 * everything, then one layout route per layout with its pages. Unknown paths fall through to
 * react-admin's catch-all, which goes to /404.
 */
export function routeElements() {
  return (
    <Route element={<NavigationGuard />}>
      <Route path="/" element={<Navigate to="/login" replace />} />
      <Route path="/admin" element={<Navigate to="/404" replace />} />
      {layoutsInUse.map((layout) => (
        <Route key={layout} element={<RouteLayout name={layout} />}>
          {routes
            .filter((route) => route.layout === layout)
            .map((route) => (
              <Route key={route.path} path={route.path} element={<RoutePage route={route} />} />
            ))}
        </Route>
      ))}
    </Route>
  );
}
