import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { MailCheckAnswer, MailPublishAnswer, MailRecordOut } from './authResource';
import { MailRecordRow } from './MailRecordRow';

/** The records of one mail domain, gathered from the four value calls. */
export interface DomainRecords {
  domain: string;
  dkim: MailRecordOut[];
  spf: MailRecordOut[];
  spfNotes: string[];
  dmarc: MailRecordOut[];
  mx: MailRecordOut[];
  inStackdeckDns: boolean;
}

type Policy = 'quarantine' | 'none';
type Check = MailCheckAnswer['data'][number];

const STATUS: Record<Check['records'][number]['status'], string> = {
  ok: 'OK',
  missing: 'Missing',
  different: 'Different',
  error: 'Error',
  warning: 'Warning',
  unchecked: 'Not checked',
};

function Section({ title, records }: { title: string; records: MailRecordOut[] }) {
  return (
    <Stack>
      <Typography variant="subtitle2">{title}</Typography>
      {records.map((r) => (
        <MailRecordRow key={`${r.type}-${r.name}-${r.content}`} record={r} />
      ))}
    </Stack>
  );
}

/**
 * A mail domain's DKIM, SPF, DMARC (quarantine or none), MX and mail A records with copy
 * buttons; "Check DNS" says per record what DNS answers, "Publish to Stackdeck DNS" writes them
 * when the domain's zone is there, after a confirm naming what it writes.
 */
export function MailAuthCard({
  ids,
  d,
}: {
  ids: { sid: number; appId: number };
  d: DomainRecords;
}) {
  const dp = useStackdeckData();
  const [policy, setPolicy] = useState<Policy>('quarantine');
  const [check, setCheck] = useState<Check | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [published, setPublished] = useState<MailPublishAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dmarc = d.dmarc.filter((r) => r.policy === policy);
  const all = [...d.dkim, ...d.spf, ...dmarc, ...d.mx];

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const doCheck = () =>
    run(async () => {
      const got = await dp.action<MailCheckAnswer>('mail-auth', 'check', {
        params: ids,
        query: { domain: d.domain },
      });
      setCheck(got.data[0] ?? null);
    });
  const doPublish = () =>
    run(async () => {
      setConfirm(false);
      setPublished(
        await dp.action<MailPublishAnswer>('mail-auth', 'publish', {
          params: ids,
          body: { domain: d.domain, dmarc_policy: policy },
        }),
      );
    });

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6">{d.domain}</Typography>
          <Section title="DKIM" records={d.dkim} />
          <Section title="SPF" records={d.spf} />
          {d.spfNotes.map((n) => (
            <Alert key={n} severity="info">
              {n}
            </Alert>
          ))}
          <Stack>
            <Typography variant="subtitle2">DMARC</Typography>
            <RadioGroup
              row
              value={policy}
              onChange={(e) => setPolicy(e.target.value as Policy)}
              aria-label={`DMARC policy of ${d.domain}`}
            >
              <FormControlLabel value="quarantine" control={<Radio />} label="Quarantine" />
              <FormControlLabel value="none" control={<Radio />} label="None, with reports" />
            </RadioGroup>
            {dmarc.map((r) => (
              <MailRecordRow key={r.content} record={r} />
            ))}
          </Stack>
          <Section title="MX and the address of the mail host" records={d.mx} />
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" onClick={doCheck} disabled={busy}>
              Check DNS
            </Button>
            {d.inStackdeckDns && (
              <Button variant="contained" onClick={() => setConfirm(true)} disabled={busy}>
                Publish to Stackdeck DNS
              </Button>
            )}
          </Stack>
          {error && <Alert severity="error">{error}</Alert>}
          {check && (
            <Alert severity={check.ok ? 'success' : 'warning'}>
              <List dense disablePadding>
                {check.records.map((r) => (
                  <ListItem key={`${r.kind}-${r.name}`} disableGutters>
                    {r.type} {r.name}: {STATUS[r.status]}. {r.message}
                  </ListItem>
                ))}
              </List>
            </Alert>
          )}
          {published && (
            <Alert severity="success">
              {published.up_to_date
                ? `The zone ${published.zone} already held these records.`
                : `Written into ${published.zone}: ${published.created.length} added, ${published.updated.length} changed, ${published.removed.length} merged away.`}
              {published.notes.map((n) => (
                <div key={n}>{n}</div>
              ))}
            </Alert>
          )}
        </Stack>
      </CardContent>
      <Dialog open={confirm} onClose={() => setConfirm(false)}>
        <DialogTitle>Publish the mail records of {d.domain}?</DialogTitle>
        <DialogContent>
          <Typography variant="body2">
            These records are written into the zone in Stackdeck DNS. The SPF record is merged into
            the one there; a DKIM, DMARC or mail address record that differs is replaced; other
            records stay.
          </Typography>
          <List dense>
            {all.map((r) => (
              <ListItem key={`${r.type}-${r.fqdn}-${r.content}`} disableGutters>
                {r.type} {r.fqdn}
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button variant="contained" onClick={doPublish}>
            Publish
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
