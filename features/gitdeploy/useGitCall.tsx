import { useParams } from 'react-router-dom';
import { useStackdeckData } from '../../src/hooks';

/** The actions that name the app by `?wsid=`; the others by `{appId}` in the path. */
const BY_QUERY = new Set(['get', 'configure', 'update']);

/** The git declaration's calls for the page's app, with `{sid}` and the app filled in. */
export function useGitCall() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const dp = useStackdeckData();
  const call = <T,>(action: string, body?: unknown, query: Record<string, unknown> = {}) =>
    dp.action<T>('gitdeploy', action, {
      params: { sid, appId },
      query: BY_QUERY.has(action) ? { wsid: appId, ...query } : query,
      body,
    });
  return { sid, appId, call };
}

export const gitPaths = {
  start: (sid: number, appId: number) => `/git/${sid}/${appId}`,
  configure: (sid: number, appId: number) => `/git-configure/${sid}/${appId}`,
};
