import Box from '@mui/material/Box';
import MuiLink from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { Link } from 'react-router-dom';
import { CHANGELOG_URL, LICENSE_URL } from './links';

/** Copyright and the Dashboard, License and Changelog links (spec section 2). */
export function Footer({ homeTo }: { homeTo: string }) {
  const translate = useTranslate();
  const linkSx = { color: 'text.secondary', fontWeight: 500, '&:hover': { color: 'primary.main' } };
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 1.5,
        px: { xs: 2, md: 4 },
        py: 2.5,
        borderTop: 1,
        borderColor: 'divider',
        color: 'text.secondary',
      }}
    >
      <Typography variant="body2">
        {translate('shell.footer.copyright', { year: new Date().getFullYear() })}
      </Typography>
      <Box component="nav" aria-label="Footer" sx={{ display: 'flex', gap: 3 }}>
        <MuiLink component={Link} to={homeTo} underline="hover" variant="body2" sx={linkSx}>
          {translate('shell.footer.dashboard')}
        </MuiLink>
        <MuiLink
          href={LICENSE_URL}
          target="_blank"
          rel="noopener noreferrer"
          underline="hover"
          variant="body2"
          sx={linkSx}
        >
          {translate('shell.footer.license')}
        </MuiLink>
        <MuiLink
          href={CHANGELOG_URL}
          target="_blank"
          rel="noopener noreferrer"
          underline="hover"
          variant="body2"
          sx={linkSx}
        >
          {translate('shell.footer.changelog')}
        </MuiLink>
      </Box>
    </Box>
  );
}
