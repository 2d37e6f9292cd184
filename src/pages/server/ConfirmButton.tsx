import { Button, type ButtonProps } from '@mui/material';
import { Confirm } from 'ra-ui-materialui';
import { type ReactNode, useState } from 'react';

interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick' | 'content'> {
  title: string;
  content: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}

/** A button that asks first; the dialog stays open with a spinner while the call runs. */
export function ConfirmButton({
  title,
  content,
  confirmLabel,
  onConfirm,
  ...button
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button {...button} onClick={() => setOpen(true)} />
      <Confirm
        isOpen={open}
        loading={busy}
        title={title}
        content={content}
        confirm={confirmLabel}
        confirmColor="warning"
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
