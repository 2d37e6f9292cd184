import type { ReactNode } from 'react';
import { Alert, Skeleton, Typography } from '@mui/material';
import { errorMessage } from './serverErrors';

/**
 * The states of a card's list query before its rows: a placeholder while it loads, the
 * server's message when it failed, a sentence when it is empty; the rows otherwise.
 */
export function QueryStates<T>({
  query,
  failed,
  empty,
  emptyTestId,
  children,
}: {
  query: { isPending: boolean; error: unknown; data?: T[] };
  /** Said when the error carries no message of its own. */
  failed: string;
  empty: string;
  emptyTestId?: string;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <Skeleton variant="rounded" height={72} />;
  if (query.error) return <Alert severity="error">{errorMessage(query.error, failed)}</Alert>;
  const rows = query.data ?? [];
  if (rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={emptyTestId}>
        {empty}
      </Typography>
    );
  return <>{children(rows)}</>;
}
