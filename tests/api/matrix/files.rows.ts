import { OFFLINE, type Row } from './support';

/**
 * The file manager: a live view of the app's folder on its server, which is offline in the
 * matrix (409 for all who pass the guard and the tenant check). The app is named by `?wsid=` or
 * `{appId}`; the derived rows name another tenant's app (404).
 */
const base = '/servers/:sid/users/:uid';

export const rows: Row[] = [
  {
    route: `GET /api/v1/fs${base}`,
    query: (f) => `?wsid=${f.appId}&path=/public&is_dir=true&page=1&per_page=100`,
    expect: OFFLINE,
  },
  {
    route: `POST /api/v1/fs${base}`,
    query: (f) => `?wsid=${f.appId}`,
    body: () => ({ dir_path: '/', name: 'notes.txt', file_content: 'aGVsbG8=' }),
    expect: OFFLINE,
  },
  {
    route: `DELETE /api/v1/fs${base}`,
    query: (f) => `?wsid=${f.appId}&path=/notes.txt&trash=true`,
    expect: OFFLINE,
  },
  {
    route: `POST /api/v1/fs/process${base}`,
    query: (f) => `?wsid=${f.appId}&action=copy`,
    body: () => ({ paths: ['/notes.txt'], destination: '/public' }),
    expect: OFFLINE,
  },
  { route: `GET /api/v1/wsdirs/webstacks/:appId${base}`, expect: OFFLINE },
];
