import { FormControl, InputLabel, MenuItem, Select, type SxProps, type Theme } from '@mui/material';

interface StatusFilterProps<S extends string> {
  /** The id that ties the label to the select. */
  id: string;
  value: '' | S;
  statuses: readonly S[];
  labelOf: (status: S) => string;
  onChange: (value: '' | S) => void;
  sx?: SxProps<Theme>;
}

/** A list's "Status" filter: All, or one of the statuses. */
export function StatusFilter<S extends string>({
  id,
  value,
  statuses,
  labelOf,
  onChange,
  sx,
}: StatusFilterProps<S>) {
  return (
    <FormControl size="small" sx={[{ minWidth: 180 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <InputLabel id={id}>Status</InputLabel>
      <Select
        labelId={id}
        label="Status"
        value={value}
        onChange={(e) => onChange(e.target.value as '' | S)}
      >
        <MenuItem value="">All</MenuItem>
        {statuses.map((s) => (
          <MenuItem key={s} value={s}>
            {labelOf(s)}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
