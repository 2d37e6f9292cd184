import type { Case } from '../validation.test';

/** Bad input to the Node.js installer: each field refused at its name, nothing made. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'Api!',
      domains: ['not a domain'],
      sys_user: 'root',
      git_url: 'ext::sh -c touch% /tmp/pwned',
      branch: '--upload-pack=x',
      start: '../../etc/passwd.js',
      env: { PORT: '80' },
    },
    errors: {
      name: /letters/,
      'domains.0': /domain/,
      sys_user: /./,
      git_url: /https/,
      branch: /branch/,
      start: /inside the app/,
      'env.PORT': /sets this one itself/,
    },
  },
  {
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'api',
      domains: ['api.example.com'],
      sys_user: 'alice',
      git_url: 'https://deploy:token@git.example.com/app.git',
      env: { GREETING: 'two\nlines' },
    },
    errors: { git_url: /user name or password/, 'env.GREETING': /One line/ },
  },
  {
    // The code's source: one of git or an uploaded archive, said at the field.
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'api', domains: ['api.example.com'], sys_user: 'alice' },
    errors: { git_url: /git repository, or an archive/ },
  },
  {
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'api',
      domains: ['api.example.com'],
      sys_user: 'alice',
      git_url: 'https://git.example.com/acme/app.git',
      archive: { file_name: 'app.tar.gz', data: 'AAAA' },
    },
    errors: { archive: /not both/ },
  },
  {
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'api',
      domains: ['api.example.com'],
      sys_user: 'alice',
      archive: { file_name: '../app.rar', data: 'not base64!' },
    },
    errors: { 'archive.file_name': /\.tar\.gz, \.tgz or \.zip/, 'archive.data': /base64/ },
  },
];
