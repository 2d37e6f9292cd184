import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { useWebAppInfo } from './WebAppInfo';
import { firstDomain, stackLabel } from './webApp';

/** The file manager's and editor's header strip: system user, PHP version, stack, first domain. */
export function WebAppStrip() {
  const translate = useTranslate();
  const info = useWebAppInfo();
  const facts = [
    ['shell.webApp.systemUser', info?.sys_user?.user_name],
    ['shell.webApp.php', info?.php_version],
    ['shell.webApp.stack', stackLabel(info?.stack_type)],
    ['shell.webApp.domain', firstDomain(info)],
  ] as const;
  return (
    <Box
      component="dl"
      data-testid="webapp-strip"
      sx={{
        m: 0,
        px: { xs: 2, md: 4 },
        py: 1.25,
        display: 'flex',
        flexWrap: 'wrap',
        gap: { xs: 2, md: 4 },
        bgcolor: '#eef2ff',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
          <Typography
            component="dt"
            variant="caption"
            color="text.secondary"
            sx={{ fontWeight: 600, textTransform: 'uppercase' }}
          >
            {translate(label)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
            {value || '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
