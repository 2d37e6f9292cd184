import { type ReactNode, useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { type RaRecord, useDelete, useNotify } from 'ra-core';
import { savedMessage } from './formModel';
import { errorMessage } from './serverErrors';

/** The words of the button, its dialog and its outcome. */
const VERBS = {
  Delete: { busy: 'Deleting…', done: 'deleted' },
  Remove: { busy: 'Removing…', done: 'removed' },
} as const;
export type DeleteVerb = keyof typeof VERBS;

export interface DeleteOption {
  label: string;
  query: Record<string, string>;
  /** The box cannot be ticked for this record; `note` says why, under it. */
  disabled?: boolean;
  note?: string;
  /** Said after "… was deleted" when it was ticked: `, with its folder`. */
  doneSuffix?: string;
}

export interface ConfirmDeleteButtonProps {
  /** react-admin resource name. */
  resource: string;
  record: RaRecord;
  /** What the record is called: `cron job "nightly"`. */
  what: string;
  /** The record in the button's name (`Delete alice`); `what` by default. */
  name?: string;
  /** Remove for a thing taken off (a key) rather than destroyed; Delete by default. */
  verb?: DeleteVerb;
  /** Path values (`sid`). */
  meta?: Record<string, unknown>;
  /** A line in the dialog: what deleting does. */
  consequence?: string;
  /** More the dialog says, rendered only while it is open (what other features lose with it). */
  details?: ReactNode;
  disabled?: boolean;
  /**
   * A choice the dialog offers (off by default), sent as query values when ticked: "Also
   * delete its databases" sends `databases=true`.
   */
  option?: DeleteOption;
  /** After the server let go (a page of the record leaves for its list). */
  onDeleted?: () => void;
}

/**
 * Delete, after a dialog that names the thing: through react-admin's useDelete (pessimistic:
 * the row goes once the server answers), so every list of the resource follows. A server that
 * is offline keeps the row as deleting until it reconnects.
 */
export function ConfirmDeleteButton({
  resource,
  record,
  what,
  name = what,
  verb = 'Delete',
  meta,
  consequence,
  details,
  disabled,
  onDeleted,
  option,
}: ConfirmDeleteButtonProps) {
  const [open, setOpen] = useState(false);
  const [ticked, setTicked] = useState(false);
  const chosen = Boolean(option && !option.disabled && ticked);
  const query = {
    ...((meta?.query as Record<string, string> | undefined) ?? {}),
    ...(option && chosen ? option.query : {}),
  };
  const notify = useNotify();
  const [remove, { isPending }] = useDelete();
  const capital = what.charAt(0).toUpperCase() + what.slice(1);
  const confirm = () =>
    remove(
      resource,
      {
        id: record.id,
        previousData: record,
        meta: Object.keys(query).length ? { ...meta, query } : meta,
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: (data) => {
          setOpen(false);
          const message = savedMessage(data as Record<string, unknown>, capital, 'deleted');
          const text =
            message.type === 'success'
              ? `${capital} was ${VERBS[verb].done}${chosen ? (option?.doneSuffix ?? '') : ''}.`
              : message.text;
          notify(text, { type: message.type });
          onDeleted?.();
        },
        onError: (error) => {
          setOpen(false);
          notify(errorMessage(error, `${capital} could not be ${VERBS[verb].done}.`), {
            type: 'error',
          });
        },
      },
    );
  return (
    <>
      <Tooltip title={`${verb} ${name}`}>
        <span>
          <IconButton
            aria-label={`${verb} ${name}`}
            // Each dialog starts with the option off.
            onClick={() => {
              setTicked(false);
              setOpen(true);
            }}
            disabled={disabled || record.status === 'deleting'}
            size="small"
          >
            <DeleteOutline fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Dialog
        open={open}
        onClose={() => !isPending && setOpen(false)}
        aria-labelledby={`delete-${record.id}-title`}
      >
        <DialogTitle id={`delete-${record.id}-title`}>
          {verb} {what}?
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {consequence ?? `${capital} will be removed. This cannot be undone.`}
          </DialogContentText>
          {open ? details : null}
          {option ? (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={
                <Checkbox
                  checked={chosen}
                  onChange={(_, on) => setTicked(on)}
                  disabled={option.disabled}
                />
              }
              label={option.label}
            />
          ) : null}
          {option?.note ? (
            <Typography variant="body2" color="text.secondary">
              {option.note}
            </Typography>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={isPending} autoFocus>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={isPending}>
            {isPending ? VERBS[verb].busy : verb}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
