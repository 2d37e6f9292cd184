import { useState } from 'react';
import { Alert, Stack, Typography } from '@mui/material';
import { FilePickButton, base64Of } from '../../src/generic/FilePickButton';
import { MAX_ARCHIVE_BYTES } from './names';

export interface PickedArchive {
  file_name: string;
  /** The file, base64, as the install call takes it. */
  data: string;
  bytes: number;
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
        <FilePickButton
          variant="outlined"
          disabled={reading}
          accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
          label="Archive of the code"
          onPick={(file) => void choose(file)}
        >
          {picked ? 'Choose another archive' : 'Choose the archive'}
        </FilePickButton>
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
