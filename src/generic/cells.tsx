import { Chip, Tooltip, Typography } from '@mui/material';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutline';
import { formatDateTime, formatRelative } from './format';
import { fieldLabel } from './labels';
import type { ColumnKind } from './zodFields';

/** A time stamp: exact local time, and how long ago on hover. */
export function DateTimeCell({ value }: { value: unknown }) {
  const text = typeof value === 'string' || typeof value === 'number' ? value : null;
  return (
    <Tooltip title={text ? formatRelative(text) : ''}>
      <Typography
        component="time"
        variant="body2"
        dateTime={text ? String(text) : undefined}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {formatDateTime(text)}
      </Typography>
    </Tooltip>
  );
}

export function FlagCell({ value, label }: { value: unknown; label: string }) {
  return value ? (
    <CheckCircleOutline fontSize="small" color="success" titleAccess={`${label}: yes`} />
  ) : (
    <RemoveCircleOutline fontSize="small" color="disabled" titleAccess={`${label}: no`} />
  );
}

/** The default rendering of one value by its column kind. */
export function ValueCell({
  kind,
  value,
  label,
}: {
  kind: ColumnKind;
  value: unknown;
  label: string;
}) {
  if (value === null || value === undefined || value === '') {
    return (
      <Typography variant="body2" color="text.disabled">
        —
      </Typography>
    );
  }
  switch (kind) {
    case 'date':
      return <DateTimeCell value={value} />;
    case 'boolean':
      return <FlagCell value={value} label={label} />;
    case 'choice':
      return <Chip size="small" variant="outlined" label={fieldLabel(String(value))} />;
    case 'number':
      return <Typography variant="body2">{Number(value).toLocaleString()}</Typography>;
    case 'text':
      return <Typography variant="body2">{String(value)}</Typography>;
  }
}

/** Addresses, keys and ids: fixed-width so they line up and read unambiguously. */
export function MonoText({ children }: { children: unknown }) {
  return (
    <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {String(children ?? '')}
    </Typography>
  );
}
