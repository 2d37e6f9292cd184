/**
 * Git deployment of a web app (spec "Git", issue 12): a repository and branch per app, cloned
 * with its system user's deployment key over a pinned host key, a deployment script run as that
 * user, releases switched atomically, webhooks from GitHub and GitLab. The panel keeps the
 * configuration and the history of deploys; the agent does the work on the server.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { appName, domainName } from '../webapps/api';
import {
  SCRIPT_TIMEOUT_MS,
  branchName,
  deployScript,
  healthPath,
  knownHostLine,
  repositoryUrl,
} from './names';

export const gitConfigSchema = z.object({
  /** The web app's id: an app has one configuration. */
  id: z.number().int(),
  repository: z.string(),
  branch: z.string(),
  script: z.string(),
  health_path: z.string(),
  /** The pinned host key's SHA-256 fingerprints (none for an https repository). */
  host_fingerprints: z.array(z.string()),
  webhook_enabled: z.boolean(),
  webhook_provider: z.enum(['github', 'gitlab']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GitConfig = z.infer<typeof gitConfigSchema>;

export const gitConfigInput = z.object({
  repository: repositoryUrl,
  branch: branchName.default('main'),
  script: deployScript,
  health_path: healthPath,
});

/** A change: the branch, the script or the health check; the repository is set once. */
export const gitConfigPatch = z.object({
  branch: branchName.optional(),
  script: deployScript.optional(),
  health_path: healthPath.optional(),
});

export const deployStatus = z.enum(['running', 'completed', 'failed']);
export const gitDeploySchema = z.object({
  id: z.number().int(),
  status: deployStatus,
  trigger: z.enum(['manual', 'webhook', 'rollback']),
  branch: z.string(),
  commit: z.string().nullable(),
  release: z.string().nullable(),
  /** The clone's and the script's output (its end when long), and why it failed. */
  output: z.string(),
  message: z.string().nullable(),
  task_id: z.number().int().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type GitDeploy = z.infer<typeof gitDeploySchema>;

export const webhookSchema = z.object({
  enabled: z.boolean(),
  provider: z.enum(['github', 'gitlab']),
  /** The address to paste into GitHub or GitLab. */
  url: z.string(),
  /** Shown once, in the answer that generated it; null afterwards. */
  secret: z.string().nullable(),
});
export const webhookPatch = z.object({
  enabled: z.boolean().optional(),
  provider: z.enum(['github', 'gitlab']).optional(),
  /** A new secret (and URL): the old ones stop working. */
  regenerate: z.boolean().optional(),
});

/** A release folder's name: a UTC time stamp, then the commit or `initial` (the kept files). */
export const releaseName = z
  .string()
  .regex(/^\d{17}-(?:[0-9a-f]{7,40}|initial)$/, 'A release name');

/**
 * The app's releases on the server: the one served, all kept (oldest first), and before the
 * first deploy the entries of the app's plain folder, which that deploy keeps as a release.
 */
export const releasesState = z.object({
  current: z.string().nullable(),
  releases: z.array(z.string()),
  /** Entries (files and folders, all depths, counted up to a cap) of a not-yet-deployed folder. */
  existing_files: z.number().int(),
  /** The release those files become: named beforehand so the page can say it. */
  kept_as: z.string().nullable(),
});
export const rollbackBody = z.object({
  /** One of the kept releases; none: the one before the current. */
  release: releaseName.optional(),
});

export const branchList = z.object({
  branches: z.array(z.object({ name: z.string(), commit: z.string() })),
});
export const deployStarted = z.object({ id: z.number().int(), task_id: z.number().int() });

const wsid = z.object({ wsid: z.coerce.number().int().positive() });
const server = 'servers/{sid}/users/{uid}';
const ofApp = `webstacks/{appId}/${server}`;

export const gitdeploy = defineResource({
  name: 'gitdeploy',
  label: 'Git deployment',
  parent: 'app',
  schema: gitConfigSchema,
  input: gitConfigInput,
  paths: {},
  ops: {},
  actions: {
    get: {
      method: 'GET',
      path: `gitdeploy/${server}`,
      guard: 'self',
      query: wsid,
      summary: "The app's git configuration (404: not configured)",
      response: gitConfigSchema,
    },
    configure: {
      method: 'POST',
      path: `gitdeploy/${server}`,
      guard: 'self',
      query: wsid,
      body: gitConfigInput,
      status: 201,
      summary: "Configure the app's repository: scans and pins the git server's host key",
      response: gitConfigSchema,
    },
    update: {
      method: 'PATCH',
      path: `gitdeploy/${server}`,
      guard: 'self',
      query: wsid,
      body: gitConfigPatch,
      summary: 'Change the branch, the deployment script or the health check',
      response: gitConfigSchema,
    },
    remove: {
      method: 'DELETE',
      path: `gitdeploy/${ofApp}`,
      guard: 'self',
      summary: 'Forget the configuration; the site keeps serving its current release',
      response: z.object({ id: z.number().int() }),
    },
    branches: {
      method: 'GET',
      path: `gitbranch/${ofApp}`,
      guard: 'self',
      summary: "The repository's branches (git ls-remote --heads, with the deployment key)",
      response: branchList,
    },
    webhook: {
      method: 'GET',
      path: `gitwebhook/${ofApp}`,
      guard: 'self',
      summary: "The app's webhook: enabled, provider and URL (never the secret)",
      response: webhookSchema,
    },
    webhookSecret: {
      method: 'GET',
      path: `gitwebhook/secret/${ofApp}`,
      guard: 'self',
      summary: "The webhook's secret, to paste into GitHub or GitLab again",
      response: z.object({ secret: z.string() }),
    },
    releases: {
      method: 'GET',
      path: `gitdeploy/releases/${ofApp}`,
      guard: 'self',
      summary:
        'The releases kept on the server, the one served, and the files a first deploy keeps',
      response: releasesState,
    },
    setWebhook: {
      method: 'PATCH',
      path: `gitwebhook/${ofApp}`,
      guard: 'self',
      body: webhookPatch,
      summary: 'Enable or disable the webhook, pick the provider, or make a new secret',
      response: webhookSchema,
    },
    deploy: {
      method: 'POST',
      path: `gitdeploy/deploys/${ofApp}`,
      guard: 'self',
      status: 202,
      summary: 'Deploy the branch now, as a task',
      response: deployStarted,
    },
    deploys: {
      method: 'GET',
      path: `gitdeploy/deploys/${ofApp}`,
      guard: 'self',
      query: z.object({
        page: z.coerce.number().int().min(1).default(1),
        perPage: z.coerce.number().int().min(1).max(100).default(20),
      }),
      summary: "The app's deploys, newest first",
      response: z.object({ data: z.array(gitDeploySchema), total: z.number().int() }),
    },
    rollback: {
      method: 'POST',
      path: `gitdeploy/rollback/${ofApp}`,
      guard: 'self',
      body: rollbackBody.optional(),
      summary: 'Switch back to a kept release (by default the one before the current one)',
      response: gitDeploySchema,
    },
  },
});

/** GitHub's and GitLab's calls: no token, the secret proves them (features/gitdeploy/serverHook.ts). */
export const githooks = defineResource({
  name: 'githooks',
  label: 'Git webhooks',
  params: { token: 'name' },
  schema: z.object({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    receive: {
      method: 'POST',
      path: 'hooks/git/{token}',
      guard: 'public',
      summary:
        'A push from GitHub (X-Hub-Signature-256) or GitLab (X-Gitlab-Token); queued during a deploy',
      bodyLimit: 5 * 1024 * 1024,
      rawBody: true,
      status: 202,
      response: z.object({ result: z.string(), deploy_id: z.number().int().nullable() }),
    },
  },
});

export const resources = { gitdeploy, githooks };

const appArgs = z.object({ sys_user: systemUserName, app: appName });
/** The administrator's OUTBOUND_ALLOW: private hosts, addresses and CIDRs git may reach. */
const outboundAllow = z
  .array(z.string().regex(/^[A-Za-z0-9.:-]{1,253}(\/\d{1,3})?$/))
  .max(100)
  .default([]);
const remoteArgs = appArgs.extend({
  repository: repositoryUrl,
  known_hosts: z.array(knownHostLine).max(10),
  outbound_allow: outboundAllow,
});

export const deployResult = z.object({
  status: z.enum(['completed', 'failed']),
  commit: z.string().nullable(),
  release: z.string().nullable(),
  output: z.string(),
  message: z.string().nullable(),
});

export const ops = {
  /** ssh-keyscan of the git server, as the app's user: the lines to pin and their fingerprints. */
  'gitdeploy.hostkey': op(
    z.object({
      sys_user: systemUserName,
      host: z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$/),
      port: z.number().int().min(1).max(65535),
      outbound_allow: outboundAllow,
    }),
    z.object({ lines: z.array(z.string()), fingerprints: z.array(z.string()) }),
  ),
  /** git ls-remote --heads, as the app's user with its key and the pinned host key. */
  'gitdeploy.branches': op(remoteArgs, branchList),
  /**
   * Clone the branch into a new release, run the script there, switch the app's folder to it
   * atomically, check its health through nginx and switch back when it fails.
   */
  'gitdeploy.deploy': op(
    remoteArgs.extend({
      branch: branchName,
      script: deployScript,
      domain: domainName,
      health_path: healthPath,
    }),
    deployResult,
    SCRIPT_TIMEOUT_MS + 5 * 60_000,
  ),
  /** Switch the app's folder back to a kept release (the one before the current by default). */
  'gitdeploy.rollback': op(
    appArgs.extend({
      domain: domainName,
      health_path: healthPath,
      release: releaseName.nullable().default(null),
    }),
    deployResult,
  ),
  /** The releases, the one served, and what a first deploy would keep (read as the user). */
  'gitdeploy.releases': op(appArgs, releasesState),
};
