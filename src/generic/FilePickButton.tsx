import { type ReactNode, useRef } from 'react';
import { Button, type ButtonProps } from '@mui/material';

/** A file's bytes as base64, for a JSON body (in pieces: spreading 100 MB at once overflows). */
export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * A real button (Tab reaches it, Enter or Space opens the file chooser) in front of the hidden
 * file input; the chosen file is handed over once and the input cleared, so choosing the same
 * file again picks it again.
 */
export function FilePickButton({
  accept,
  label,
  onPick,
  children,
  ...button
}: {
  accept: string;
  /** The input's accessible name (what the file is). */
  label: string;
  onPick: (file: File) => void;
  children: ReactNode;
} & Omit<ButtonProps, 'onClick' | 'children'>) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onPick(file);
        }}
      />
    </>
  );
}
