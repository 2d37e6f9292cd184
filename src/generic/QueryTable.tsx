import type { ReactNode } from 'react';
import {
  Alert,
  Box,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { errorMessage } from './serverErrors';
import { VISUALLY_HIDDEN } from './visuallyHidden';

/** A column heading, or one with its alignment (a sum at the right, a leading button cell). */
export type QueryTableColumn = string | { label: string; align?: 'left' | 'right' };

export interface QueryTableProps<T> {
  query: { isPending: boolean; error: unknown; data?: T[] };
  /** Said when the error carries no message of its own. */
  failed: string;
  /** What an empty list says: a sentence, or a whole empty state (EmptyState). */
  empty: ReactNode;
  emptyTestId?: string;
  /** The table's accessible name. */
  label: string;
  /**
   * Column headings; an empty one stands over the row actions, at the right (named Actions for
   * screen readers).
   */
  columns: readonly QueryTableColumn[];
  /** The rows, as `TableRow`s. */
  children: (rows: T[]) => ReactNode;
  /** `small` by default (a card's list); `medium` for a page's own table. */
  size?: 'small' | 'medium';
  /** Under the table (a TablePager), when there are rows. */
  footer?: ReactNode;
}

/**
 * A card's or a page's list read by hand (not a resource's GenericList): a placeholder while it
 * loads, the server's message when it failed, a sentence (or an empty state) when it is empty,
 * otherwise a table that scrolls sideways on narrow screens, with what goes under it.
 */
export function QueryTable<T>({
  query,
  failed,
  empty,
  emptyTestId,
  label,
  columns,
  children,
  size = 'small',
  footer,
}: QueryTableProps<T>) {
  if (query.isPending) return <Skeleton variant="rounded" height={72} />;
  if (query.error) return <Alert severity="error">{errorMessage(query.error, failed)}</Alert>;
  const rows = query.data ?? [];
  if (rows.length === 0)
    return typeof empty === 'string' ? (
      <Typography variant="body2" color="text.secondary" data-testid={emptyTestId}>
        {empty}
      </Typography>
    ) : (
      <Box data-testid={emptyTestId}>{empty}</Box>
    );
  return (
    <>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size={size} aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((column, i) => {
                const { label: heading, align } =
                  typeof column === 'string' ? { label: column, align: undefined } : column;
                return (
                  <TableCell key={i} align={align ?? (heading ? undefined : 'right')}>
                    {/* The actions' column is named for screen readers: each cell needs a header. */}
                    {heading || <Box sx={VISUALLY_HIDDEN}>Actions</Box>}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>{children(rows)}</TableBody>
        </Table>
      </Box>
      {footer}
    </>
  );
}
