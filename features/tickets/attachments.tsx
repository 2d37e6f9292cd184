import { useRef, useState } from 'react';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import {
  ATTACHMENTS_PER_MESSAGE,
  ATTACHMENT_ACCEPT,
  type AttachmentInput,
  attachmentInput,
} from '../../resources/tickets';
import { sessions } from '../../src/providers';

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.readAsDataURL(file);
  });
}

/** Reads picked files and checks each with the shared attachment schema. */
async function readFiles(files: readonly File[]) {
  const ok: AttachmentInput[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const parsed = attachmentInput.safeParse({
      name: file.name,
      type: file.type,
      data: await toBase64(file),
    });
    if (parsed.success) ok.push(parsed.data);
    else errors.push(`${file.name}: ${parsed.error.issues[0]?.message ?? 'not accepted'}`);
  }
  return { ok, errors };
}

const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** The files of a message: pick (checked as the server checks), list, remove before sending. */
export function AttachmentPicker({
  value,
  onChange,
  disabled,
}: {
  value: AttachmentInput[];
  onChange: (files: AttachmentInput[]) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const pick = async (list: FileList | null) => {
    const { ok, errors: bad } = await readFiles(Array.from(list ?? []));
    const room = ATTACHMENTS_PER_MESSAGE - value.length;
    if (ok.length > room) bad.push(`At most ${ATTACHMENTS_PER_MESSAGE} files a message`);
    setErrors(bad);
    onChange([...value, ...ok.slice(0, Math.max(room, 0))]);
    if (input.current) input.current.value = '';
  };
  return (
    <Box>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ATTACHMENT_ACCEPT}
        data-testid="attachment-input"
        onChange={(e) => void pick(e.target.files)}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="outlined"
          startIcon={<AttachFile />}
          onClick={() => input.current?.click()}
          disabled={disabled || value.length >= ATTACHMENTS_PER_MESSAGE}
        >
          Attach files
        </Button>
        {value.map((file, i) => (
          <Chip
            key={`${file.name}-${i}`}
            label={file.name}
            onDelete={() => onChange(value.filter((_, j) => j !== i))}
          />
        ))}
      </Stack>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
        Up to {ATTACHMENTS_PER_MESSAGE} files of at most 5 MB: PNG, JPEG, GIF, WebP, PDF, TXT or
        LOG.
      </Typography>
      {errors.length > 0 && (
        <Alert severity="error" sx={{ mt: 1 }} role="alert">
          {errors.map((e) => (
            <div key={e}>{e}</div>
          ))}
        </Alert>
      )}
    </Box>
  );
}

/** Downloads an attachment with the session's token (a plain link would carry none). */
export async function downloadAttachment(attachment: { id: number; name: string }) {
  const session = sessions.get();
  if (!session) throw new Error('Sign in again to download');
  const res = await fetch(
    `/api/v1/supportcs/attachments/${attachment.id}/users/${session.userId}`,
    {
      headers: { authorization: `Bearer ${session.token}` },
    },
  );
  if (!res.ok)
    throw new Error(res.status === 404 ? 'This file is not available' : `HTTP ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = attachment.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export { kb };
