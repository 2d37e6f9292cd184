import type { ComponentType, ReactNode } from 'react';
import { useState } from 'react';
import { Box, Button, Card, CardContent } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useStackdeckData } from '../hooks';
import { CardPager } from './CardPager';
import { EmptyState } from './EmptyState';
import { PageHeader } from './PageHeader';
import { QueryTable } from './QueryTable';

const PER_PAGE = 25;

export interface AcrossServersPageProps<Row extends { id: number }> {
  /** The declared action that answers `{data, total}` for the acting user (`ofUser`). */
  resource: string;
  action: string;
  title: string;
  description: string;
  /** What the rows are, for the table's label, the empty state and the errors: "databases". */
  plural: string;
  emptyText: string;
  icon: ComponentType<{ sx?: object }>;
  columns: readonly string[];
  row: (row: Row) => ReactNode;
}

/**
 * A main-sidebar page of one kind of thing on all the user's servers (databases, web apps):
 * read-only, paged, each row leading to its server's page, where it is changed.
 */
export function AcrossServersPage<Row extends { id: number }>(props: AcrossServersPageProps<Row>) {
  const dp = useStackdeckData();
  const [page, setPage] = useState(1);
  const query = useQuery({
    // The acting user's: the data provider names them, and the cache is cleared on a switch.
    queryKey: [props.resource, props.action],
    queryFn: ({ signal }) =>
      dp.action<{ data: Row[]; total: number }>(props.resource, props.action, { signal }),
  });
  const all = query.data?.data ?? [];
  const pages = Math.max(1, Math.ceil(all.length / PER_PAGE));
  const shown = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const Title = props.plural.charAt(0).toUpperCase() + props.plural.slice(1);
  return (
    <Box sx={{ maxWidth: 1080 }}>
      <PageHeader title={props.title} description={props.description} />
      {!query.isPending && !query.error && all.length === 0 ? (
        <Card variant="outlined">
          <EmptyState
            title={`No ${props.plural} yet`}
            text={props.emptyText}
            icon={props.icon}
            action={
              <Button component={Link} to="/dashboard" variant="contained">
                Choose a server
              </Button>
            }
          />
        </Card>
      ) : (
        <Card variant="outlined">
          <CardContent>
            <QueryTable
              query={{ ...query, data: shown }}
              failed={`The ${props.plural} could not be loaded.`}
              empty={`No ${props.plural} yet.`}
              label={`${Title} of all servers`}
              columns={[...props.columns]}
            >
              {(rows) => rows.map((row) => props.row(row))}
            </QueryTable>
          </CardContent>
        </Card>
      )}
      <CardPager pages={pages} page={page} setPage={setPage} label={`${Title} pages`} />
    </Box>
  );
}
