import type { ComponentType, ReactNode } from 'react';
import { lazyPage } from '../routes/lazyPage';
import type { LayoutName } from '../routes/types';
import PlainLayout from './PlainLayout';

type Layout = ComponentType<{ children: ReactNode }>;

/**
 * Layout components by name (spec section 2). Plain is the sign-in pages' and stays in the
 * first bundle; every other layout, with its header, sidebars and icons, loads on first use.
 */
export const LAYOUTS: Record<LayoutName, Layout> = {
  plain: PlainLayout,
  default: lazyPage(() => import('./DefaultLayout')),
  main: lazyPage(() => import('./MainLayout')),
  profile: lazyPage(() => import('./ProfileLayout')),
  secondary: lazyPage(() => import('./SecondaryLayout')),
  fileManager: lazyPage(() => import('./FileManagerLayout')),
  webApp: lazyPage(() => import('./WebAppLayout')),
  appsMini: lazyPage(() => import('./AppsMiniLayout')),
  email: lazyPage(() => import('./EmailLayout')),
  admin: lazyPage(() => import('./AdminLayout')),
  adminPlain: lazyPage(() => import('./AdminPlainLayout')),
};
