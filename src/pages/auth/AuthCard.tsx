import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { ReactNode } from 'react';
import { BrandMark } from '../../shell/BrandMark';
import { LanguageMenu } from '../../shell/LanguageMenu';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the form (register, back to sign in...). */
  footer?: ReactNode;
}

/** The frame of every public page: a brand panel on wide screens, the form on the right. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex' }}>
      <Box
        aria-hidden
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          width: '42%',
          maxWidth: 560,
          p: 6,
          color: '#fff',
          background:
            'radial-gradient(circle at 20% 20%, rgba(129,140,248,0.55), transparent 45%), radial-gradient(circle at 80% 75%, rgba(14,165,233,0.35), transparent 40%), linear-gradient(160deg, #1e1b4b 0%, #312e81 55%, #0f172a 100%)',
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <BrandMark size={36} />
          <Typography sx={{ fontWeight: 750, fontSize: 22 }}>{translate('shell.brand')}</Typography>
        </Box>
        <Box>
          <Typography
            sx={{
              fontSize: 34,
              fontWeight: 750,
              lineHeight: 1.15,
              letterSpacing: '-0.02em',
              maxWidth: 400,
            }}
          >
            {translate('auth.tagline')}
          </Typography>
          <Box
            sx={{
              mt: 4,
              display: 'grid',
              gridTemplateColumns: 'repeat(6, 1fr)',
              gap: 1,
              maxWidth: 300,
              opacity: 0.5,
            }}
          >
            {Array.from({ length: 18 }, (_, index) => (
              <Box
                key={index}
                sx={{
                  height: 10,
                  borderRadius: 1,
                  bgcolor: index % 5 === 0 ? '#a5b4fc' : 'rgba(255,255,255,0.25)',
                }}
              />
            ))}
          </Box>
        </Box>
        <Typography variant="body2" sx={{ opacity: 0.7 }}>
          {translate('shell.footer.copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Box>
      <Box
        sx={{ flex: 1, display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', p: 2 }}>
          <Box sx={{ display: { xs: 'flex', md: 'none' }, alignItems: 'center', gap: 1 }}>
            <BrandMark size={28} />
            <Typography sx={{ fontWeight: 750 }}>{translate('shell.brand')}</Typography>
          </Box>
          <Box sx={{ ml: 'auto' }}>
            <LanguageMenu />
          </Box>
        </Box>
        <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, pb: 6 }}>
          <Box
            sx={{
              width: '100%',
              maxWidth: 440,
              bgcolor: 'background.paper',
              border: 1,
              borderColor: 'divider',
              borderRadius: '16px',
              p: { xs: 3, sm: 5 },
              boxShadow: '0 20px 45px -25px rgba(15,23,42,0.25)',
            }}
          >
            <Typography variant="h2" component="h1" sx={{ mb: subtitle ? 1 : 3 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography color="text.secondary" sx={{ mb: 3 }}>
                {subtitle}
              </Typography>
            )}
            {children}
            {footer && (
              <Box sx={{ mt: 3, textAlign: 'center', color: 'text.secondary', fontSize: 14 }}>
                {footer}
              </Box>
            )}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
