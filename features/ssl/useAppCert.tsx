import { type RaRecord, useGetList } from 'ra-core';
import { useApp } from '../webapps/pagesApi';
import type { SslCert } from './resource';

/** The app of the page and its certificate (none or one), from `sslcerts/webstacks/{appId}`. */
export function useAppCert() {
  const app = useApp();
  const list = useGetList<SslCert & RaRecord>('appsslcerts', {
    pagination: { page: 1, perPage: 5 },
    sort: { field: 'created_at', order: 'DESC' },
    meta: { sid: app.sid, appId: app.appId },
  });
  return { ...app, cert: list.data?.[0], loading: list.isPending, refetchCert: list.refetch };
}
