import type { Case } from '../validation.test';
import { app } from './webapps.cases';

/** Bad input on the file manager: paths that leave the app, modes, names, pages, actions. */
const S = 'servers/:sid/users/:uid';

export const cases: Case[] = [
  {
    route: `GET /api/v1/fs/${S}`,
    as: 'user',
    query: '?wsid=:appId&path=/public/../../etc&is_dir=perhaps&per_page=100000',
    errors: { path: 'A path stays inside the app (no .. segments)', is_dir: /./, per_page: /./ },
    params: app,
  },
  {
    route: `POST /api/v1/fs/${S}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { dir_path: '/a/../..', name: 'a/b', file_content: 'not base64!' },
    errors: {
      dir_path: 'A path stays inside the app (no .. segments)',
      name: 'A name holds no / or control characters',
      file_content: 'Base64 text',
    },
    params: app,
  },
  {
    route: `POST /api/v1/fs/${S}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { dir_path: '/', name: '..' },
    errors: { name: 'Not . or ..' },
    params: app,
  },
  {
    route: `DELETE /api/v1/fs/${S}`,
    as: 'user',
    query: '?wsid=:appId&path=/&trash=maybe',
    errors: { path: "The app's folder itself is not deleted here", trash: /./ },
    params: app,
  },
  {
    route: `POST /api/v1/fs/process/${S}`,
    as: 'user',
    query: '?wsid=:appId&action=shred',
    body: { paths: ['/index.php'] },
    errors: { action: /./ },
    params: app,
  },
  {
    route: `POST /api/v1/fs/process/${S}`,
    as: 'user',
    query: '?wsid=:appId&action=permissions',
    body: { paths: [], mode: '4755', format: 'rar' },
    errors: { paths: /./, mode: 'No setuid or setgid bits', format: /./ },
    params: app,
  },
  {
    route: `POST /api/v1/fs/process/${S}`,
    as: 'user',
    query: '?wsid=:appId&action=permissions',
    body: { paths: ['/index.php'], mode: 'rwxr-xr-x' },
    errors: { mode: 'Three or four octal digits, such as 644 or 0755' },
    params: app,
  },
];
