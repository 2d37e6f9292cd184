import { useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import DOMPurify from 'dompurify';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../src/generic/serverErrors';
import { MAX_REMOTE_IMAGES } from './remoteImages';
import { mailDocument, sanitizeMail } from './sanitizeMail';
import {
  type OpenMailbox,
  downloadAttachment,
  remoteImage,
  useMessage,
  useRefresh,
  useWebmail,
} from './webmailClient';
import type { MailMessage } from './webmailResource';

const people = (list: MailMessage['from']) =>
  list.map((p) => (p.name ? `${p.name} <${p.address}>` : p.address)).join(', ');

const kib = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

interface Where {
  mailbox: OpenMailbox;
  folder: string;
  uid: number;
}

/**
 * The HTML part, cleaned, in a frame that runs nothing and loads nothing from elsewhere; its
 * remote images only when the reader asks, through the panel's image proxy.
 */
function HtmlBody({ html, where }: { html: string; where: Where }) {
  const [loaded, setLoaded] = useState<ReadonlyMap<string, string>>(new Map());
  const [loading, setLoading] = useState(false);
  const [missed, setMissed] = useState(0);
  const clean = useMemo(() => sanitizeMail(DOMPurify, html, loaded), [html, loaded]);
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(200);
  const showImages = async () => {
    setLoading(true);
    const wanted = clean.images.slice(0, MAX_REMOTE_IMAGES);
    const got = await Promise.all(
      wanted.map((url) =>
        remoteImage(where.mailbox, where.folder, where.uid, url).then(
          (data) => [url, data] as const,
          () => null,
        ),
      ),
    );
    const fetched = got.filter((pair) => pair !== null);
    setMissed(wanted.length - fetched.length);
    setLoaded(new Map(fetched));
    setLoading(false);
  };
  return (
    <Stack spacing={1}>
      {clean.blocked ? (
        <Alert
          severity="info"
          action={
            clean.images.length && !loaded.size ? (
              <Button
                color="inherit"
                size="small"
                disabled={loading}
                onClick={() => void showImages()}
              >
                Show images
              </Button>
            ) : undefined
          }
        >
          {clean.blocked} remote image(s) or style(s) not loaded: loading them would tell the sender
          when and where you read this message.
          {clean.images.length && !loaded.size
            ? ' Show images fetches them through the panel, which keeps your address from the sender.'
            : ''}
        </Alert>
      ) : null}
      {missed ? <Alert severity="warning">{missed} image(s) could not be loaded.</Alert> : null}
      <Box
        component="iframe"
        ref={frame}
        title="Message"
        // Same origin only so its height can be read; no script runs in it.
        sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
        srcDoc={mailDocument(clean.html)}
        onLoad={() => {
          const body = frame.current?.contentDocument?.body;
          if (body) setHeight(Math.min(4000, body.scrollHeight + 24));
        }}
        sx={{ width: '100%', height, border: 0, bgcolor: '#fff' }}
      />
    </Stack>
  );
}

/** A message read in its folder: who, when, the text or HTML, attachments; reply, move, delete. */
export function MessageView({
  mailbox,
  folder,
  uid,
  onBack,
}: {
  mailbox: OpenMailbox;
  folder: string;
  uid: number;
  onBack: () => void;
}) {
  const message = useMessage(mailbox, folder, uid);
  const call = useWebmail(mailbox);
  const refresh = useRefresh(mailbox);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [plain, setPlain] = useState(false);
  const m = message.data;

  const act = async (action: string, body: object) => {
    setFailure(null);
    try {
      await call(action, { body: { folder, uids: [uid], ...body } });
      await refresh();
      onBack();
    } catch (e) {
      setFailure(errorMessage(e));
    }
  };
  const compose = (mode: 'reply' | 'all' | 'forward') =>
    navigate(`/compose-mail?${mode}=${uid}&folder=${encodeURIComponent(folder)}`);

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button onClick={onBack}>Back to the list</Button>
        <Button onClick={() => compose('reply')} disabled={!m}>
          Reply
        </Button>
        <Button onClick={() => compose('all')} disabled={!m}>
          Reply to all
        </Button>
        <Button onClick={() => compose('forward')} disabled={!m}>
          Forward
        </Button>
        {folder !== 'archive' ? (
          <Button onClick={() => void act('move', { to: 'archive' })}>Archive</Button>
        ) : null}
        {folder !== 'spam' ? (
          <Button onClick={() => void act('move', { to: 'spam' })}>Spam</Button>
        ) : (
          <Button onClick={() => void act('move', { to: 'inbox' })}>Not spam</Button>
        )}
        <Button color="error" onClick={() => void act('delete', {})}>
          {folder === 'trash' || folder === 'spam' ? 'Delete for good' : 'Delete'}
        </Button>
      </Stack>
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      {message.isPending ? <LinearProgress aria-label="Loading the message" /> : null}
      {message.error ? <Alert severity="error">{errorMessage(message.error)}</Alert> : null}
      {m ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={1}>
            <Typography variant="h6" component="h2">
              {m.subject || '(no subject)'}
            </Typography>
            <Typography variant="body2">From: {people(m.from)}</Typography>
            <Typography variant="body2">To: {people(m.to)}</Typography>
            {m.cc.length ? <Typography variant="body2">Cc: {people(m.cc)}</Typography> : null}
            {m.date ? (
              <Typography variant="body2" color="text.secondary">
                {new Date(m.date).toLocaleString()}
              </Typography>
            ) : null}
            {m.attachments.length ? (
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
                {m.attachments.map((a) => (
                  <Chip
                    key={a.part}
                    label={`${a.filename || 'attachment'} (${kib(a.size)})`}
                    onClick={() =>
                      void downloadAttachment(mailbox, folder, uid, a).catch((e: unknown) =>
                        setFailure(errorMessage(e)),
                      )
                    }
                    aria-label={`Download ${a.filename || 'the attachment'}`}
                  />
                ))}
              </Stack>
            ) : null}
            {m.html && !plain ? (
              <>
                <Button
                  size="small"
                  sx={{ alignSelf: 'flex-start' }}
                  onClick={() => setPlain(true)}
                >
                  Show as plain text
                </Button>
                <HtmlBody html={m.html} where={{ mailbox, folder, uid }} />
              </>
            ) : (
              <Typography component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
                {m.text}
              </Typography>
            )}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
