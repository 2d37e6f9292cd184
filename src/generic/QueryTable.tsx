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

export interface QueryTableProps<T> {
  query: { isPending: boolean; error: unknown; data?: T[] };
  /** Said when the error carries no message of its own. */
  failed: string;
  empty: string;
  emptyTestId?: string;
  /** The table's accessible name. */
  label: string;
  /** Column headings; an empty one stands over the row actions, at the right. */
  columns: readonly string[];
  /** The rows, as `TableRow`s. */
  children: (rows: T[]) => ReactNode;
}

/**
 * A card's list: a placeholder while it loads, the server's message when it failed, a sentence
 * when it is empty, otherwise a small table that scrolls sideways on narrow screens.
 */
export function QueryTable<T>({
  query,
  failed,
  empty,
  emptyTestId,
  label,
  columns,
  children,
}: QueryTableProps<T>) {
  if (query.isPending) return <Skeleton variant="rounded" height={72} />;
  if (query.error) return <Alert severity="error">{errorMessage(query.error, failed)}</Alert>;
  const rows = query.data ?? [];
  if (rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={emptyTestId}>
        {empty}
      </Typography>
    );
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column, i) => (
              <TableCell key={i} align={column ? undefined : 'right'}>
                {/* The actions' column is named for screen readers: each cell needs a header. */}
                {column || <Box sx={VISUALLY_HIDDEN}>Actions</Box>}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children(rows)}</TableBody>
      </Table>
    </Box>
  );
}
