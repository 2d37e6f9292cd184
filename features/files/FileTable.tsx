import {
  Checkbox,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import LinkIcon from '@mui/icons-material/Link';
import type { Entry } from './filesApi';

const size = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 ** 2).toFixed(1)} MB`;

/**
 * A page of a folder: a checkbox per entry (Space ticks it), the name a link (Enter opens: a
 * folder is entered, a file goes to the editor), then size, permissions and time.
 */
export function FileTable({
  entries,
  selected,
  onSelect,
  onOpen,
}: {
  entries: readonly Entry[];
  selected: ReadonlySet<string>;
  onSelect: (paths: string[], on: boolean) => void;
  onOpen: (entry: Entry) => void;
}) {
  const all = entries.length > 0 && entries.every((e) => selected.has(e.path));
  return (
    <Table size="small" aria-label="Files">
      <TableHead>
        <TableRow>
          <TableCell padding="checkbox">
            <Checkbox
              checked={all}
              indeterminate={!all && entries.some((e) => selected.has(e.path))}
              onChange={(e) =>
                onSelect(
                  entries.map((x) => x.path),
                  e.target.checked,
                )
              }
              inputProps={{ 'aria-label': 'Select all on this page' }}
            />
          </TableCell>
          <TableCell>Name</TableCell>
          <TableCell align="right">Size</TableCell>
          <TableCell>Permissions</TableCell>
          <TableCell>Modified</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map((e) => (
          <TableRow key={e.path} hover selected={selected.has(e.path)}>
            <TableCell padding="checkbox">
              <Checkbox
                checked={selected.has(e.path)}
                onChange={(ev) => onSelect([e.path], ev.target.checked)}
                inputProps={{ 'aria-label': `Select ${e.name}` }}
              />
            </TableCell>
            <TableCell sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              {e.type === 'dir' ? (
                <FolderOutlined fontSize="small" color="primary" />
              ) : e.type === 'link' ? (
                <LinkIcon fontSize="small" color="action" />
              ) : (
                <InsertDriveFileOutlined fontSize="small" color="action" />
              )}
              {e.type === 'dir' || e.type === 'file' ? (
                <Link component="button" type="button" onClick={() => onOpen(e)} underline="hover">
                  {e.name}
                </Link>
              ) : (
                <Typography variant="body2" component="span">
                  {e.name}
                  {e.target ? ` → ${e.target}` : ''}
                </Typography>
              )}
            </TableCell>
            <TableCell align="right">{e.type === 'dir' ? '—' : size(e.size)}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{e.mode}</TableCell>
            <TableCell>{new Date(e.mtime).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
