import TablePagination from '@mui/material/TablePagination';
import { useState } from 'react';

/** A table's page (0-based, as MUI counts) and page size; a new size starts at page 0. */
export interface Paging {
  page: number;
  perPage: number;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
}

export function usePaging(initialPerPage = 25): Paging {
  const [page, setPage] = useState(0);
  const [perPage, setSize] = useState(initialPerPage);
  return {
    page,
    perPage,
    setPage,
    setPerPage: (size) => {
      setSize(size);
      setPage(0);
    },
  };
}

/** The pagination bar under a long table. */
export function TablePager({
  paging,
  total,
  options = [10, 25, 50, 100],
}: {
  paging: Paging;
  total: number | undefined;
  options?: number[];
}) {
  return (
    <TablePagination
      component="div"
      count={total ?? 0}
      page={paging.page}
      rowsPerPage={paging.perPage}
      rowsPerPageOptions={options}
      onPageChange={(_, page) => paging.setPage(page)}
      onRowsPerPageChange={(event) => paging.setPerPage(Number(event.target.value))}
    />
  );
}
