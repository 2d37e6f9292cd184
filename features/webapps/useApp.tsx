import { type RaRecord, useGetOne, useUpdate } from 'ra-core';
import { useParams } from 'react-router-dom';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import type { Webapp } from './schemas';

/**
 * The app of an app-level page (`/:serverId/:webAppId`), published to the layout, and a
 * change to it through react-admin's useUpdate (PATCH webstacks/{appId}), so every list of
 * apps follows. `change` resolves with the record the server answers, or rejects with its error.
 */
export function useApp() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const {
    data: app,
    error,
    refetch,
  } = useGetOne<Webapp & RaRecord>('webstacks', { id: appId, meta: { sid } }, { retry: false });
  usePublishWebApp(app);
  const [update, { isPending }] = useUpdate<Webapp & RaRecord>();
  const change = (data: Record<string, unknown>) =>
    new Promise<Webapp>((resolve, reject) =>
      update(
        'webstacks',
        { id: appId, data, previousData: app, meta: { sid } },
        { mutationMode: 'pessimistic', onSuccess: resolve, onError: reject },
      ),
    );
  return { sid, appId, app, error, refetch, change, saving: isPending };
}
