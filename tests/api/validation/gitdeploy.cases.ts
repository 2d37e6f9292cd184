import type { Case } from '../validation.test';
import { app } from './webapps.cases';

const REPO = /A repository URL/;
const server = 'servers/:sid/users/:uid';
const ofApp = `webstacks/:appId/${server}`;

/** Bad input on git deployment: repository URLs git would run or read locally, branches, wsid. */
export const cases: Case[] = [
  // A rollback names one of the kept releases, in the agent's own name format, or none.
  {
    route: `POST /api/v1/gitdeploy/rollback/${ofApp}`,
    as: 'user',
    body: { release: '../../etc' },
    errors: { release: 'A release name' },
    params: app,
  },
  // A malformed or foreign `?wsid=` is as missing as a stranger's app (404); a missing one is a 400.
  {
    route: `GET /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { repository: '-oProxyCommand=x', branch: '-x', script: 'a\0b', health_path: 'health' },
    errors: {
      repository: REPO,
      branch: 'A branch name cannot start with -',
      script: 'No NUL characters',
      health_path: 'A path starting with /, e.g. /health',
    },
    params: app,
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { repository: 'ext::sh -c x', branch: 'a..b', script: 'x'.repeat(16 * 1024 + 1) },
    errors: { repository: REPO, branch: 'No .., @{ or //', script: 'At most 16384 characters' },
    params: app,
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { repository: 'file:///etc', branch: 'main.lock' },
    errors: { repository: REPO, branch: 'No part may start with . or end with .lock' },
    params: app,
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { branch: 'a b' },
    errors: { repository: /./, branch: 'No spaces or any of ~ ^ : ? * [ \\' },
    params: app,
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { repository: '/srv/repo' },
    errors: { repository: REPO },
    params: app,
  },
  {
    route: `POST /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '',
    body: { repository: 'git@github.com:owner/repo.git' },
    errors: { wsid: /./ },
  },
  {
    route: `PATCH /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '?wsid=:appId',
    body: { branch: '-x', script: 7, health_path: '/a b' },
    errors: {
      branch: 'A branch name cannot start with -',
      script: /./,
      health_path: 'A path starting with /, e.g. /health',
    },
    params: app,
  },
  {
    route: `PATCH /api/v1/gitdeploy/${server}`,
    as: 'user',
    query: '',
    body: { branch: 'main' },
    errors: { wsid: /./ },
  },
  {
    route: `PATCH /api/v1/gitwebhook/${ofApp}`,
    as: 'user',
    body: { enabled: 'yes', provider: 'bitbucket', regenerate: 1 },
    errors: { enabled: /./, provider: /./, regenerate: /./ },
    params: app,
  },
  {
    route: `GET /api/v1/gitdeploy/deploys/${ofApp}`,
    as: 'user',
    query: '?page=0&perPage=101',
    errors: { page: /./, perPage: /./ },
    params: app,
  },
  {
    route: `GET /api/v1/gitdeploy/deploys/${ofApp}`,
    as: 'user',
    query: '?page=x&perPage=0',
    errors: { page: /./, perPage: /./ },
    params: app,
  },
];
