import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useStackdeckData } from '../../src/hooks';
import type { Mailbox } from './resource';

/** At most this many addresses are named; the rest are counted. */
const NAMED = 20;

/**
 * In an app's delete dialog: the mailboxes that go with it, by address (the app.deleting event
 * removes them from the server; their mail is moved aside there, not deleted). Nothing when the
 * app has none, or when mail was never enabled on the server.
 */
export function AppDeleteDetails({ sid, appId }: { sid: number; appId: number }) {
  const dp = useStackdeckData();
  const boxes = useQuery({
    queryKey: ['mail-user', sid, appId, 'delete-details'],
    queryFn: ({ signal }) =>
      dp.action<{ data: Mailbox[]; total: number }>('mail-user', 'list', {
        params: { sid, appId },
        query: { page: 1, perPage: NAMED, sort: 'local', order: 'ASC' },
        signal,
      }),
    retry: false,
  });
  const total = boxes.data?.total ?? 0;
  if (!total) return null;
  const named = boxes.data!.data.map((m) => m.address);
  const more = total - named.length;
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      Its {total === 1 ? 'mailbox goes' : `${total} mailboxes go`} with it: {named.join(', ')}
      {more > 0 ? ` and ${more} more` : ''}.{' '}
      {total === 1
        ? 'Mail to it is refused from then on; the mail it holds'
        : 'Mail to them is refused from then on; the mail they hold'}{' '}
      is moved aside on the server and purged after 30 days.
    </Alert>
  );
}
