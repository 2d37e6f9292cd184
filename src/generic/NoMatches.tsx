import { Box, Button, Typography } from '@mui/material';
import FilterAltOff from '@mui/icons-material/FilterAltOff';
import { useListContext } from 'ra-core';

/** A filtered list with no rows: say so plainly and offer the way back to everything. */
export function NoMatches() {
  const { setFilters } = useListContext();
  return (
    <Box
      role="status"
      sx={{ p: 3, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
    >
      <Typography variant="body2" color="text.secondary">
        Nothing matches these filters.
      </Typography>
      <Button size="small" startIcon={<FilterAltOff />} onClick={() => setFilters({}, [])}>
        Clear filters
      </Button>
    </Box>
  );
}
