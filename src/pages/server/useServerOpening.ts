import { useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'ra-core';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_SYSTEM_USER } from '../../../resources/agent/validators';
import type { Server } from '../../../resources/servers';
import type { Sysuser } from '../../../features/sysusers/api';
import type { StackdeckDataProvider } from '../../../dataProvider';
import { errorMessage } from '../../generic/serverErrors';
import { generatePassword } from '../../generic/passwords';

export interface CreatedPassword {
  user_name: string;
  password: string;
}

export type OpeningPhase = 'loading' | 'waiting' | 'done';

export interface ServerOpening {
  phase: OpeningPhase;
  /** Passwords of the system users made on this opening: shown once, never again. */
  created: CreatedPassword[];
  dismiss: () => void;
}

/** One opening per server at a time in this tab (StrictMode, quick re-mounts). */
const running = new Map<number, Promise<CreatedPassword[]>>();

const isTaken = (error: unknown) =>
  (error as { status?: number } | null)?.status === 400 ||
  (error as { status?: number } | null)?.status === 409;

async function openServer(
  dp: StackdeckDataProvider,
  server: Server,
  online: boolean,
): Promise<{ created: CreatedPassword[]; complete: boolean }> {
  const meta = { sid: server.id };
  // System users and activity logs are loaded (and cached for the pages).
  const [users] = await Promise.all([
    dp.getList<Sysuser>('sysusers', {
      meta,
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: {},
    }),
    dp.getList('server-activity', {
      meta,
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: {},
    }),
  ]);
  if (!online) return { created: [], complete: false };

  // Missing OS or time zone: read from the server and saved to its settings.
  if (!server.os_version || !server.timezone) {
    const { os, tz } = await dp.action<{ os: string; tz: string }>('servers', 'ostz', {
      params: { sid: server.id },
    });
    await dp.update('servers', {
      id: server.id,
      data: { os_version: os, timezone: tz },
      previousData: server,
    });
  }

  // No system users yet: the default user, and root's password when the owner asked for it
  // on the Connect page; 36 random characters each.
  const created: CreatedPassword[] = [];
  if (users.total === 0) {
    const names = server.root_password ? ['root', DEFAULT_SYSTEM_USER] : [DEFAULT_SYSTEM_USER];
    for (const user_name of names) {
      const password = generatePassword();
      try {
        await dp.create('sysusers', {
          meta,
          data: { user_name, password, quota_hard: 0, quota_soft: 0 },
        });
        created.push({ user_name, password });
      } catch (error) {
        // Made by an earlier opening that did not finish: nothing to show, go on.
        if (!isTaken(error)) throw error;
      }
    }
  }
  return { created, complete: true };
}

/**
 * The spec's "server layout opening": system users and activity logs loaded; a missing OS or
 * time zone fetched and saved; with no system users, root and the default user created with
 * generated passwords (root only when asked for at connect). Steps that need the agent wait until the server is online. `phase`
 * becomes done when the layout may subscribe to live reports.
 */
export function useServerOpening(server: Server | undefined, online: boolean): ServerOpening {
  const dp = useDataProvider<StackdeckDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<OpeningPhase>('loading');
  const [created, setCreated] = useState<CreatedPassword[]>([]);
  const finished = useRef<number | null>(null);
  const serverId = server?.id;

  useEffect(() => {
    if (!server || finished.current === server.id) return;
    let current = true;
    const key = server.id;
    const pending =
      running.get(key) ??
      openServer(dp, server, online).then(({ created: made, complete }) => {
        if (complete) finished.current = key;
        return complete ? made : Promise.reject(new OfflineOpening());
      });
    running.set(key, pending);
    pending
      .then((made) => {
        if (!current) return;
        setCreated((before) => [...before, ...made]);
        setPhase('done');
        if (made.length) {
          void queryClient.invalidateQueries({ queryKey: ['sysusers'] });
        }
        void queryClient.invalidateQueries({ queryKey: ['servers'] });
        void queryClient.invalidateQueries({ queryKey: ['server-activity'] });
      })
      .catch((error: unknown) => {
        if (!current) return;
        if (error instanceof OfflineOpening) {
          setPhase('waiting');
          return;
        }
        setPhase('done');
        notify(errorMessage(error, 'Opening the server failed.'), { type: 'error' });
      })
      .finally(() => {
        if (running.get(key) === pending) running.delete(key);
      });
    return () => {
      current = false;
    };
    // Runs again when the server comes online (the agent steps waited for it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverId, online]);

  return { phase, created, dismiss: () => setCreated([]) };
}

class OfflineOpening extends Error {}
