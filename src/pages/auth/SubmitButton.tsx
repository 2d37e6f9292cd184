import Button from '@mui/material/Button';
import { type ReactNode, Suspense, lazy } from 'react';

// The spinner shows only while a call runs: it is not part of the page's first load.
const CircularProgress = lazy(() => import('@mui/material/CircularProgress'));

/** The form's full-width submit button, busy while the call runs. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      disabled={busy}
      aria-busy={busy}
      sx={{ mt: 2.5, py: 1.25, fontSize: 16 }}
      // The button says it is busy (aria-busy): its spinner is decoration.
      startIcon={
        busy ? (
          <Suspense fallback={null}>
            <CircularProgress size={18} color="inherit" aria-hidden />
          </Suspense>
        ) : undefined
      }
    >
      {children}
    </Button>
  );
}
