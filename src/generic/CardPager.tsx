import { Box, Pagination } from '@mui/material';

/** Page numbers under a grid or stack of cards (1-based); nothing when one page holds them all. */
export function CardPager({
  pages,
  page,
  setPage,
  label,
}: {
  pages: number;
  page: number;
  setPage: (page: number) => void;
  /** The accessible name, e.g. "Server pages". */
  label: string;
}) {
  if (pages <= 1) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
      <Pagination
        count={pages}
        page={page}
        onChange={(_event, next: number) => setPage(next)}
        aria-label={label}
      />
    </Box>
  );
}
