import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useResetErrorBoundaryOnLocationChange, useTranslate } from 'ra-core';
import { ChunkTimeoutError } from '../routes/chunkReload';
import { BrandMark } from './BrandMark';

interface AppErrorProps {
  error: Error;
  resetErrorBoundary: (...args: unknown[]) => void;
}

const isChunkError = (error: Error) =>
  error instanceof ChunkTimeoutError ||
  /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(
    error.message,
  );

/** What the user sees when a page crashes, or its code could not be loaded even after a reload. */
export function AppError({ error, resetErrorBoundary }: AppErrorProps) {
  const translate = useTranslate();
  useResetErrorBoundaryOnLocationChange(resetErrorBoundary);
  return (
    <Box
      role="alert"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 3,
        bgcolor: 'background.default',
      }}
    >
      <Box sx={{ maxWidth: 460, textAlign: 'center' }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 3 }}>
          <BrandMark size={40} />
        </Box>
        <Typography variant="h2" component="h1" gutterBottom>
          {translate('shell.error.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {isChunkError(error) ? translate('shell.error.chunk') : error.message}
        </Typography>
        <Button variant="contained" size="large" onClick={() => window.location.reload()}>
          {translate('shell.error.reload')}
        </Button>
      </Box>
    </Box>
  );
}
