import { Alert, Button, Stack } from '@mui/material';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import { useQuery } from '@tanstack/react-query';
import { type RaRecord, useGetOne } from 'ra-core';
import { Link, useParams } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import type { MailRecordsAnswer } from './authResource';
import { type DomainRecords, MailAuthCard } from './MailAuthCard';

/** The spec's address of an app's email authentication (DKIM, SPF, DMARC, MX). */
export const emailAuthPath = (sid: number | string, app: number | string) =>
  `/email-authentication/${sid}/${app}`;

const CALLS = ['dkim', 'spf', 'dmarc', 'mx'] as const;

/** The four value calls joined per mail domain. */
function joined(answers: Record<(typeof CALLS)[number], MailRecordsAnswer>): DomainRecords[] {
  return answers.dkim.data.map((k) => {
    const of = (call: (typeof CALLS)[number]) =>
      answers[call].data.find((x) => x.domain === k.domain);
    return {
      domain: k.domain,
      dkim: k.records,
      spf: of('spf')?.records ?? [],
      spfNotes: of('spf')?.notes ?? [],
      dmarc: of('dmarc')?.records ?? [],
      mx: of('mx')?.records ?? [],
      inStackdeckDns: k.in_stackdeck_dns,
    };
  });
}

/**
 * /email-authentication/{serverId}/{webAppId}: per mail domain of the app, the records that let
 * its mail be trusted, to copy into the domain's DNS or publish into Stackdeck DNS.
 */
export default function EmailAuthenticationPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const dp = useStackdeckData();
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const appName = app ? String(app.name) : 'the app';
  const ids = { sid, appId };
  const values = useQuery({
    queryKey: ['mail-auth', sid, appId],
    queryFn: async ({ signal }) => {
      const got = await Promise.all(
        CALLS.map((c) =>
          dp.action<MailRecordsAnswer>('mail-auth', c, { params: { sid, appId }, signal }),
        ),
      );
      return joined({ dkim: got[0]!, spf: got[1]!, dmarc: got[2]!, mx: got[3]! });
    },
  });
  const mailboxes = `/emails/${sid}/${appId}`;

  return (
    <Stack spacing={2}>
      <PageHeader
        title="Email authentication"
        description={`The DNS records that let receivers trust mail from ${appName}'s domains: DKIM, SPF, DMARC and MX.`}
      />
      {values.error && <Alert severity="error">{errorMessage(values.error)}</Alert>}
      {values.data?.length === 0 && (
        <EmptyState
          title="No mail domain yet"
          text={`A domain of ${appName}'s gets its mail records with its first mailbox.`}
          icon={VerifiedUserOutlined}
          action={
            <Button component={Link} to={mailboxes} variant="contained">
              Add a mailbox
            </Button>
          }
        />
      )}
      {values.data?.map((d) => (
        <MailAuthCard key={d.domain} ids={ids} d={d} />
      ))}
    </Stack>
  );
}
