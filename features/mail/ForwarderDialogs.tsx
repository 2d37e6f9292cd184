import { useState } from 'react';
import { InputAdornment, MenuItem, TextField } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { useStackdeckData } from '../../src/hooks';
import type { Forwarder, MailDomain } from './forwardersResource';
import { FormDialog, useSend } from './FormDialog';

/** One address a line (or separated by commas or spaces), as typed. */
const targetsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);

/** The server's words on the targets (`targets`, or `targets.3` for one of them). */
const targetError = (fields: Record<string, string>) =>
  Object.entries(fields).find(([k]) => k === 'targets' || k.startsWith('targets.'))?.[1];

function TargetsField({
  value,
  onChange,
  fields,
  autoFocus = false,
}: {
  value: string;
  onChange: (v: string) => void;
  fields: Record<string, string>;
  autoFocus?: boolean;
}) {
  const error = targetError(fields);
  return (
    <TextField
      label="Forward to"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      multiline
      minRows={3}
      required
      autoFocus={autoFocus}
      error={Boolean(error)}
      helperText={error ?? 'One address a line, up to 50'}
      slotProps={{ htmlInput: { spellCheck: false } }}
    />
  );
}

const domainKey = (d: Pick<MailDomain, 'webapp_id' | 'domain'>) => `${d.webapp_id} ${d.domain}`;

/** A new forwarder: the domain (of the account's apps with mail), its name, where it goes. */
export function AddForwarderDialog({
  domains,
  onClose,
}: {
  domains: MailDomain[];
  onClose: () => void;
}) {
  const dp = useStackdeckData();
  const [key, setKey] = useState(domains[0] ? domainKey(domains[0]) : '');
  const [local, setLocal] = useState('');
  const [text, setText] = useState('');
  const { busy, fields, error, send } = useSend(onClose);
  const picked = domains.find((d) => domainKey(d) === key);
  const save = () =>
    send(async () => {
      if (!picked) throw new Error('Pick a domain');
      await dp.create('mail-forwarder', {
        data: { local, domain: picked.domain, targets: targetsOf(text) },
        meta: { sid: picked.server_id, query: { wsid: picked.webapp_id } },
      });
    });
  return (
    <FormDialog
      title="Add a forwarder"
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      error={error}
      saveLabel="Add forwarder"
    >
      <TextField
        select
        label="Domain"
        value={key}
        onChange={(e) => setKey(e.target.value)}
        error={Boolean(fields.domain)}
        helperText={fields.domain ?? 'A domain of one of your web apps on a server with mail'}
        required
      >
        {domains.map((d) => (
          <MenuItem key={domainKey(d)} value={domainKey(d)}>
            {d.domain} ({d.webapp_name} on {d.server_name})
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Address"
        value={local}
        onChange={(e) => setLocal(e.target.value)}
        autoFocus
        required
        error={Boolean(fields.local)}
        helperText={
          fields.local ?? 'The part before the @: letters, digits and . _ + -, with no mailbox'
        }
        slotProps={{
          htmlInput: { spellCheck: false, autoCapitalize: 'none' },
          input: {
            endAdornment: picked ? (
              <InputAdornment position="end">@{picked.domain}</InputAdornment>
            ) : null,
          },
        }}
      />
      <TargetsField value={text} onChange={setText} fields={fields} />
    </FormDialog>
  );
}

/** Where a forwarder (or a catch-all) sends its mail now. */
export function EditForwarderDialog({
  forwarder,
  onClose,
}: {
  forwarder: Forwarder;
  onClose: () => void;
}) {
  const dp = useStackdeckData();
  const [text, setText] = useState(forwarder.targets.join('\n'));
  const { busy, fields, error, send } = useSend(onClose);
  const save = () =>
    send(() =>
      dp.update('mail-forwarder', {
        id: forwarder.id,
        data: { targets: targetsOf(text) },
        previousData: {} as RaRecord,
        meta: { sid: forwarder.server_id },
      }),
    );
  return (
    <FormDialog
      title={`Forward ${forwarder.address}`}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      error={error}
      saveLabel="Save"
    >
      <TargetsField value={text} onChange={setText} fields={fields} autoFocus />
    </FormDialog>
  );
}

/** Deleting names the address: its mail is refused (or caught) from then on. */
export function DeleteForwarderDialog({
  forwarder,
  onClose,
}: {
  forwarder: Forwarder;
  onClose: () => void;
}) {
  const dp = useStackdeckData();
  const { busy, error, send } = useSend(onClose);
  const remove = () =>
    send(() =>
      dp.delete('mail-forwarder', {
        id: forwarder.id,
        previousData: forwarder as unknown as RaRecord,
        meta: { sid: forwarder.server_id },
      }),
    );
  return (
    <FormDialog
      title={`Delete ${forwarder.address}?`}
      onClose={onClose}
      onSubmit={() => void remove()}
      busy={busy}
      error={error}
      saveLabel={`Delete ${forwarder.address}`}
      danger
    >
      <span>
        Mail to {forwarder.address} is no longer forwarded to {forwarder.targets.join(', ')}
        {'. '}
        Unless the domain has a catch-all, it is refused.
      </span>
    </FormDialog>
  );
}

/** A domain's catch-all: set (or changed), with the addresses it sends to. */
export function CatchAllDialog({ domain, onClose }: { domain: MailDomain; onClose: () => void }) {
  const dp = useStackdeckData();
  const [text, setText] = useState(domain.catch_all?.targets.join('\n') ?? '');
  const { busy, fields, error, send } = useSend(onClose);
  const save = () =>
    send(() =>
      dp.action('mail-forwarder', 'setCatchAll', {
        params: { sid: domain.server_id },
        query: { wsid: domain.webapp_id },
        body: { domain: domain.domain, targets: targetsOf(text) },
      }),
    );
  return (
    <FormDialog
      title={`Catch-all of ${domain.domain}`}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      error={error ?? fields.domain ?? null}
      saveLabel="Save catch-all"
    >
      <span>
        Mail to any address of {domain.domain} with no mailbox or forwarder goes here. Catch-alls
        attract spam: use one only where you need it.
      </span>
      <TargetsField value={text} onChange={setText} fields={fields} autoFocus />
    </FormDialog>
  );
}

export function RemoveCatchAllDialog({
  domain,
  onClose,
}: {
  domain: MailDomain;
  onClose: () => void;
}) {
  const dp = useStackdeckData();
  const { busy, error, send } = useSend(onClose);
  const remove = () =>
    send(() =>
      dp.action('mail-forwarder', 'removeCatchAll', {
        params: { sid: domain.server_id },
        query: { wsid: domain.webapp_id, domain: domain.domain },
      }),
    );
  return (
    <FormDialog
      title={`Remove the catch-all of ${domain.domain}?`}
      onClose={onClose}
      onSubmit={() => void remove()}
      busy={busy}
      error={error}
      saveLabel="Remove catch-all"
      danger
    >
      <span>
        Mail to an address of {domain.domain} with no mailbox or forwarder is refused from then on.
      </span>
    </FormDialog>
  );
}
