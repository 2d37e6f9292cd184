import { useEffect, useState } from 'react';
import { Alert, Button, Chip, LinearProgress, Stack, TextField } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { WebmailFrame } from './WebmailFrame';
import {
  type OpenMailbox,
  attachmentAgain,
  attachmentOf,
  useMessage,
  useRefresh,
  useWebmail,
} from './webmailClient';
import type { MailMessage } from './webmailResource';

type Attachment = Awaited<ReturnType<typeof attachmentOf>>;

interface Draft {
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  text: string;
  in_reply_to: string | null;
  references: string[];
}

const EMPTY: Draft = {
  to: '',
  cc: '',
  bcc: '',
  subject: '',
  text: '',
  in_reply_to: null,
  references: [],
};

const addresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

const quoted = (m: MailMessage) =>
  `\n\nOn ${m.date ? new Date(m.date).toLocaleString() : 'an earlier day'}, ${
    m.from[0]?.name || m.from[0]?.address || 'someone'
  } wrote:\n${m.text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n')}`;

const prefixed = (prefix: string, subject: string) =>
  subject.toLowerCase().startsWith(prefix.toLowerCase()) ? subject : `${prefix} ${subject}`;

/** What compose starts from: a reply, a reply to all, a forward, a draft, or nothing. */
function startFrom(mode: string | null, m: MailMessage, own: string): Draft {
  if (mode === 'draft')
    return {
      to: m.to.map((p) => p.address).join(', '),
      cc: m.cc.map((p) => p.address).join(', '),
      bcc: '',
      subject: m.subject,
      text: m.text,
      // A reply's draft: what it answers is the last of its references.
      in_reply_to: m.references.at(-1) ?? null,
      references: m.references,
    };
  const thread = {
    in_reply_to: m.message_id,
    references: [...m.references, ...(m.message_id ? [m.message_id] : [])],
  };
  if (mode === 'forward')
    return {
      ...EMPTY,
      subject: prefixed('Fwd:', m.subject),
      text: `\n\n---------- Forwarded message ----------\nFrom: ${m.from
        .map((p) => p.address)
        .join(', ')}\nSubject: ${m.subject}\n\n${m.text}`,
    };
  const replyTo = (m.reply_to.length ? m.reply_to : m.from).map((p) => p.address);
  const others =
    mode === 'all'
      ? [...m.to, ...m.cc].map((p) => p.address).filter((a) => a !== own && !replyTo.includes(a))
      : [];
  return {
    ...EMPTY,
    ...thread,
    to: replyTo.join(', '),
    cc: others.join(', '),
    subject: prefixed('Re:', m.subject),
    text: quoted(m),
  };
}

/** The server's words at the field they are about (`message.to.1` is the To field's). */
function fieldWords(errors: Record<string, string>) {
  const at = (name: string) =>
    Object.entries(errors)
      .filter(([k]) => k === `message.${name}` || k.startsWith(`message.${name}.`))
      .map(([, v]) => v)[0];
  return {
    to: at('to'),
    cc: at('cc'),
    bcc: at('bcc'),
    subject: at('subject'),
    text: at('text'),
    attachments: at('attachments'),
  };
}

function ComposeForm({ mailbox }: { mailbox: OpenMailbox }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const call = useWebmail(mailbox);
  const refresh = useRefresh(mailbox);
  const mode = ['reply', 'all', 'forward', 'draft'].find((k) => params.get(k));
  const sourceUid = mode ? Number(params.get(mode)) : null;
  const sourceFolder = mode === 'draft' ? 'drafts' : (params.get('folder') ?? 'inbox');
  const source = useMessage(mailbox, sourceFolder, sourceUid);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [draftUid, setDraftUid] = useState<number | null>(mode === 'draft' ? sourceUid : null);
  const [files, setFiles] = useState<Attachment[]>([]);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (source.data) setDraft(startFrom(mode ?? null, source.data, mailbox.address));
  }, [source.data, mode, mailbox.address]);

  // A forward and a reopened draft carry the message's attachments (each can be taken off).
  const [carrying, setCarrying] = useState(false);
  useEffect(() => {
    const m = source.data;
    if (!m || sourceUid === null || (mode !== 'forward' && mode !== 'draft')) return;
    if (!m.attachments.length) return;
    let current = true;
    setCarrying(true);
    void Promise.allSettled(
      m.attachments.map((a) => attachmentAgain(mailbox, sourceFolder, sourceUid, a)),
    ).then((got) => {
      if (!current) return;
      setFiles(got.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
      const missed = got.filter((r) => r.status === 'rejected').length;
      if (missed) setFailure(`${missed} attachment(s) of the message could not be carried over`);
      setCarrying(false);
    });
    return () => {
      current = false;
    };
  }, [source.data, mode, mailbox, sourceFolder, sourceUid]);

  const message = () => ({
    to: addresses(draft.to),
    cc: addresses(draft.cc),
    bcc: addresses(draft.bcc),
    subject: draft.subject,
    text: draft.text,
    in_reply_to: draft.in_reply_to,
    references: draft.references,
    attachments: files,
  });

  const submit = async (kind: 'send' | 'draft') => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    setSaved(false);
    try {
      if (kind === 'send') {
        if (!addresses(draft.to).length) {
          setErrors({ 'message.to': 'Who is it for?' });
          return;
        }
        await call('send', { body: { message: message(), draft: draftUid } });
        await refresh();
        navigate('/sent-mail');
      } else {
        const got = await call<{ uid: number | null }>('draft', {
          body: { message: message(), replaces: draftUid },
        });
        setDraftUid(got.uid);
        setSaved(true);
        await refresh();
      }
    } catch (e) {
      const found = fieldErrorsOf(e);
      setErrors(found);
      if (!Object.keys(found).length) setFailure(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const words = fieldWords(errors);
  const field = (name: keyof Draft & keyof typeof words, label: string, extra = {}) => (
    <TextField
      label={label}
      value={draft[name] as string}
      onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      error={Boolean(words[name])}
      helperText={words[name]}
      fullWidth
      {...extra}
    />
  );

  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={(e) => {
        e.preventDefault();
        void submit('send');
      }}
    >
      {source.isPending && sourceUid !== null ? (
        <LinearProgress aria-label="Loading the message" />
      ) : null}
      {source.error ? <Alert severity="error">{errorMessage(source.error)}</Alert> : null}
      {carrying ? <LinearProgress aria-label="Attaching the message's files" /> : null}
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      {saved ? <Alert severity="success">Saved in Drafts.</Alert> : null}
      <TextField label="From" value={mailbox.address} disabled fullWidth />
      {field('to', 'To', { required: true, placeholder: 'name@example.com, other@example.com' })}
      {field('cc', 'Cc')}
      {field('bcc', 'Bcc')}
      {field('subject', 'Subject')}
      {field('text', 'Message', { multiline: true, minRows: 10 })}
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Button component="label" variant="outlined">
          Attach files
          <input
            hidden
            type="file"
            multiple
            onChange={(e) => {
              const chosen = [...(e.target.files ?? [])];
              e.target.value = '';
              void Promise.all(chosen.map(attachmentOf)).then((more) =>
                setFiles((now) => [...now, ...more]),
              );
            }}
          />
        </Button>
        {files.map((f, i) => (
          <Chip
            key={`${f.filename}-${i}`}
            label={f.filename}
            onDelete={() => setFiles(files.filter((_, j) => j !== i))}
          />
        ))}
      </Stack>
      {words.attachments ? <Alert severity="error">{words.attachments}</Alert> : null}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={busy || carrying}>
          Send
        </Button>
        <Button disabled={busy} onClick={() => void submit('draft')}>
          Save draft
        </Button>
      </Stack>
    </Stack>
  );
}

/** /compose-mail: a new message, a reply, a forward (`?reply=`, `?all=`, `?forward=`) or a draft. */
export default function ComposePage() {
  return (
    <WebmailFrame title="Compose">{(mailbox) => <ComposeForm mailbox={mailbox} />}</WebmailFrame>
  );
}
