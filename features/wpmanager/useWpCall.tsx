import { useParams } from 'react-router-dom';
import { useStackdeckData } from '../../src/hooks';

/**
 * The manager's calls for the page's app: each action of the `wpmanager` declaration, with
 * `{sid}` and `?wsid=` (or `{appId}`) filled in.
 */
export function useWpCall() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const dp = useStackdeckData();
  const call = <T,>(
    action: string,
    more: {
      query?: Record<string, unknown>;
      body?: unknown;
      params?: Record<string, unknown>;
    } = {},
  ) =>
    dp.action<T>('wpmanager', action, {
      params: { sid, appId, ...more.params },
      // `wp/webstacks/{appId}` names the app in its path; the others by `?wsid=`.
      query: action === 'uploadPlugin' ? more.query : { wsid: appId, ...more.query },
      body: more.body,
    });
  return { sid, appId, call };
}
