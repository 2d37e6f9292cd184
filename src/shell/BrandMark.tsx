import Box from '@mui/material/Box';

/** The Stackdeck mark: three stacked decks. Inline SVG, so it costs no request. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 32 32"
      width={size}
      height={size}
      aria-hidden
      sx={{ flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path d="M8 11.5 16 7l8 4.5-8 4.5-8-4.5Z" fill="#fff" />
      <path
        d="m8 16 8 4.5 8-4.5"
        fill="none"
        stroke="#c7d2fe"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path
        d="m8 20.5 8 4.5 8-4.5"
        fill="none"
        stroke="#a5b4fc"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </Box>
  );
}
