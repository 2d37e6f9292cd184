import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { Link, useNavigate } from 'react-router-dom';
import { sessions } from '../../providers';
import { BrandMark } from '../../shell/BrandMark';

interface ErrorPageProps {
  code: '403' | '404';
  title: string;
  text: string;
}

/** /403 and /404: what went wrong, and the way home that fits who is looking. */
export function ErrorPage({ code, title, text }: ErrorPageProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const session = sessions.get();
  const home = !session
    ? { to: '/login', label: 'shell.error.toLogin' }
    : session.isAdmin
      ? { to: '/admin/dashboard', label: 'shell.error.toAdmin' }
      : { to: '/dashboard', label: 'shell.error.toDashboard' };
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3 }}>
      <Box sx={{ maxWidth: 520, textAlign: 'center' }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 4 }}>
          <BrandMark size={40} />
        </Box>
        <Typography
          aria-hidden
          sx={{
            fontSize: { xs: 96, sm: 128 },
            fontWeight: 800,
            lineHeight: 1,
            letterSpacing: '-0.04em',
            background: 'linear-gradient(135deg,#4f46e5,#0ea5e9)',
            WebkitBackgroundClip: 'text',
            backgroundClip: 'text',
            color: 'transparent',
          }}
        >
          {code}
        </Typography>
        <Typography variant="h2" component="h1" sx={{ mt: 2, mb: 1 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {text}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button component={Link} to={home.to} variant="contained" size="large">
            {translate(home.label)}
          </Button>
          <Button size="large" onClick={() => navigate(-1)}>
            {translate('shell.error.back')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
