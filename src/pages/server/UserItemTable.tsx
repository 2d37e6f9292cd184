import type { ReactNode } from 'react';
import {
  Card,
  type SxProps,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type Theme,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { EmptyState, type EmptyStateProps } from '../../generic/EmptyState';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { StatusChip } from './StatusChip';

/** A desired-state row that belongs to a system user of the server (the user, or their key). */
export interface UserItem {
  id: number;
  user_name: string;
  status: Parameters<typeof StatusChip>[0]['status'];
  error: string | null;
}

interface UserItemTableProps<T extends UserItem> {
  /** The table's accessible name. */
  label: string;
  items: T[];
  isPending: boolean;
  empty: Pick<EmptyStateProps, 'icon' | 'title' | 'text'>;
  /** The heading of the column between the user and the status. */
  detailHeading: string;
  detail: (item: T) => ReactNode;
  detailSx?: SxProps<Theme>;
  /** The heading of the actions column (none by default). */
  actionsHeading?: string;
  actions: (item: T) => ReactNode;
  testId: (item: T) => string;
  sx?: SxProps<Theme>;
  /** Dialogs the rows open. */
  children?: ReactNode;
}

/**
 * A server's per-user table (system users, SSH keys): the user in bold, what the row is about,
 * its status with the agent's error, and the actions; an empty state when there is no row.
 */
export function UserItemTable<T extends UserItem>({
  label,
  items,
  isPending,
  empty,
  detailHeading,
  detail,
  detailSx,
  actionsHeading,
  actions,
  testId,
  sx,
  children,
}: UserItemTableProps<T>) {
  return (
    <Card variant="outlined" sx={sx}>
      {!isPending && items.length === 0 ? (
        <EmptyState {...empty} />
      ) : (
        <Table aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell>{detailHeading}</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">{actionsHeading}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.id} data-testid={testId(item)}>
                <TableCell>
                  <strong>{item.user_name}</strong>
                </TableCell>
                <TableCell sx={detailSx}>{detail(item)}</TableCell>
                <TableCell>
                  <StatusChip status={item.status} />
                  {item.error ? (
                    <Typography variant="body2" color="error">
                      {item.error}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">{actions(item)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {children}
    </Card>
  );
}

/**
 * Deletes a row of `resource` on server `sid`, says so (or why not) and reloads the list.
 */
export function useRemoveUserItem<T extends UserItem>(resource: string, sid: number) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  return async (item: T, done: string) => {
    try {
      await dp.delete(resource, { id: item.id, previousData: item, meta: { sid } });
      notify(done, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: [resource] });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    }
  };
}
