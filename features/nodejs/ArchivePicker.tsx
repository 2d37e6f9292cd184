import { useRef, useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { MAX_ARCHIVE_BYTES } from './names';

export interface PickedArchive {
  file_name: string;
  /** The file, base64, as the install call takes it. */
  data: string;
  bytes: number;
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * The archive of the app's code: a button (a real one: Tab reaches it, Enter or Space opens
 * the file chooser), then the chosen file's name and size, or why it cannot be sent. The size
 * and the name's ending are checked here first, so a 300 MB file is never uploaded to be
 * refused.
 */
export function ArchivePicker({
  picked,
  onPick,
}: {
  picked: PickedArchive | null;
  onPick: (archive: PickedArchive | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const choose = async (file: File) => {
    onPick(null);
    setProblem(null);
    if (!/\.(tar\.gz|tgz|zip)$/i.test(file.name))
      return setProblem(`${file.name} is not a .tar.gz, .tgz or .zip file.`);
    if (file.size > MAX_ARCHIVE_BYTES)
      return setProblem(
        `${file.name} is ${mb(file.size)}: an archive may be ${mb(MAX_ARCHIVE_BYTES)} at most.`,
      );
    setReading(true);
    try {
      onPick({ file_name: file.name, data: await base64Of(file), bytes: file.size });
    } finally {
      setReading(false);
    }
  };
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" disabled={reading} onClick={() => input.current?.click()}>
          {picked ? 'Choose another archive' : 'Choose the archive'}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
          hidden
          aria-label="Archive of the code"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void choose(file);
          }}
        />
        <Typography variant="body2" color="text.secondary" data-testid="picked-archive">
          {reading
            ? 'Reading the file…'
            : picked
              ? `${picked.file_name}, ${mb(picked.bytes)}`
              : `A .tar.gz or .zip of the code, ${mb(MAX_ARCHIVE_BYTES)} at most; one folder in it is taken as the code itself.`}
        </Typography>
      </Stack>
      {problem ? (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      ) : null}
    </Stack>
  );
}
