import { Card, CardContent, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useGetList } from 'ra-core';
import { Link } from 'react-router-dom';

/** How many of a server's things the panel holds: a count that leads to their page. */
function Count({
  resource,
  sid,
  noun,
  to,
}: {
  resource: string;
  sid: number;
  noun: string;
  to: string;
}) {
  const { total } = useGetList(resource, { pagination: { page: 1, perPage: 1 }, meta: { sid } });
  return (
    <Card variant="outlined" sx={{ flex: 1 }}>
      <CardContent>
        <Typography variant="h5" component="p">
          {total ?? '…'}
        </Typography>
        <MuiLink component={Link} to={to}>
          {noun}
        </MuiLink>
      </CardContent>
    </Card>
  );
}

/** The server summary's line of what it hosts: its web apps and databases. */
export function HostedCounts({ sid }: { sid: number }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
      <Count resource="webstacks" sid={sid} noun="Web apps" to={`/web-applications/${sid}`} />
      <Count resource="databases" sid={sid} noun="Databases" to={`/database-list/${sid}`} />
    </Stack>
  );
}
