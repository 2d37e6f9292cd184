import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Grid,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { LoadError } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { formatDateTime } from '../../src/generic/format';
import { useStackdeckData } from '../../src/hooks';
import { ConfirmDialog } from './ConfirmDialog';
import { RecoveryKeyCard } from './RecoveryKeyCard';
import { useStorage } from './PolicyForm';
import { StorageDialog } from './StorageDialog';
import { useBackupsRefresh } from './TaskProgress';
import type { BackupTarget, backupCreditSchema } from './schemas';
import { sizeText } from './chips';
import { backupPaths, creditFull, usedPercent } from './words';

type Credit = z.infer<typeof backupCreditSchema>;

/** The allowance on the panel's storage and what is used of it. */
function CreditCard() {
  const dp = useStackdeckData();
  const credit = useQuery({
    queryKey: ['backup-credit'],
    queryFn: () => dp.action<Credit>('backup-credit', 'get'),
  });
  if (credit.error)
    return (
      <LoadError
        error={credit.error}
        what="backup credit"
        back={{ to: '/dashboard', label: 'Dashboard' }}
        onRetry={() => void credit.refetch()}
        inline
      />
    );
  const data = credit.data;
  const percent = data ? usedPercent(data.used_bytes, data.credit_bytes) : 0;
  const full = data ? creditFull(data.used_bytes, data.credit_bytes) : false;
  return (
    <SectionCard id="backup-credit" title="Panel storage" icon={StorageOutlined}>
      {data ? (
        <Stack spacing={1}>
          {full ? (
            <Alert severity="error" data-testid="credit-full">
              Your backup storage is full: backups to the panel storage do not run until you delete
              old backups or get more credit. Backups to your own S3 or SFTP storage run as usual.
            </Alert>
          ) : null}
          <Typography variant="body2" data-testid="credit-use">
            {sizeText(data.used_bytes)} used of {sizeText(data.credit_bytes)}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={percent}
            color={full || percent >= 90 ? 'error' : percent >= 75 ? 'warning' : 'primary'}
            aria-label={`Backup credit used: ${percent}%`}
            sx={{ height: 8, borderRadius: 4 }}
          />
          <Typography variant="caption" color="text.secondary">
            {data.credit_bytes === 0
              ? 'No credit on the panel storage yet: add your own S3 or SFTP storage, or ask support for credit.'
              : data.metered_at
                ? `Measured ${formatDateTime(data.metered_at)}`
                : 'Measured once a day'}
          </Typography>
        </Stack>
      ) : (
        <LinearProgress aria-label="Loading" />
      )}
    </SectionCard>
  );
}

function TargetRow({ target, onRemove }: { target: BackupTarget; onRemove?: () => void }) {
  return (
    <ListItem
      divider
      data-testid={`storage-${target.id}`}
      secondaryAction={
        onRemove ? (
          <Tooltip title={`Remove ${target.name}`}>
            <IconButton edge="end" aria-label={`Remove ${target.name}`} onClick={onRemove}>
              <DeleteOutline />
            </IconButton>
          </Tooltip>
        ) : undefined
      }
    >
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <span>{target.name}</span>
            <Chip size="small" variant="outlined" label={target.kind.toUpperCase()} />
          </Stack>
        }
        secondary={`${target.location}${target.hint ? ` · ${target.hint}` : ''} · ${sizeText(target.used_bytes)} used`}
      />
    </ListItem>
  );
}

/** The storages: the panel's own and the account's S3 and SFTP targets. */
function StorageCard() {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useBackupsRefresh();
  const storage = useStorage();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<BackupTarget | null>(null);
  const targets = storage.data?.targets ?? [];
  const own = targets.filter((t) => t.kind !== 'panel');
  return (
    <SectionCard
      id="backup-storage"
      title="Storage"
      icon={StorageOutlined}
      aside={
        <Button startIcon={<Add />} onClick={() => setAdding(true)}>
          Add storage
        </Button>
      }
    >
      {storage.error ? (
        <LoadError
          error={storage.error}
          what="storage"
          back={{ to: '/dashboard', label: 'Dashboard' }}
          onRetry={() => void storage.refetch()}
          inline
        />
      ) : (
        <List dense disablePadding aria-label="Storages">
          {targets
            .filter((t) => t.kind === 'panel')
            .map((t) => (
              <TargetRow key={t.id} target={t} />
            ))}
          {own.map((t) => (
            <TargetRow key={t.id} target={t} onRemove={() => setRemoving(t)} />
          ))}
          {storage.data && own.length === 0 ? (
            <ListItem>
              <ListItemText secondary="Only the panel's storage. Add S3 or SFTP storage to keep backups with a provider of your own." />
            </ListItem>
          ) : null}
        </List>
      )}
      {adding ? (
        <StorageDialog
          onClose={() => setAdding(false)}
          sftpPublicKey={storage.data?.sftp_public_key ?? null}
        />
      ) : null}
      <ConfirmDialog
        open={Boolean(removing)}
        title={removing ? `Remove ${removing.name}?` : ''}
        text="The panel forgets this storage and its keys. Files already there stay with your provider; backups using it must move to another storage first."
        confirm="Remove storage"
        busyLabel="Removing…"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await dp.action('backup-targets', 'setStorage', {
            body: { id: removing.id, remove: true },
          });
          notify(`${removing.name} removed`, { type: 'success' });
          await refresh();
        }}
      />
    </SectionCard>
  );
}

function KindCard({
  to,
  title,
  text,
  icon: Icon,
}: {
  to: string;
  title: string;
  text: string;
  icon: typeof StorageOutlined;
}) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea component={Link} to={to} sx={{ height: '100%' }}>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <Icon color="primary" />
            <Typography variant="h6" component="h2">
              {title}
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {text}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** /backup: credit and use of the panel storage, the storages, and the two kinds of backups. */
export default function BackupOverviewPage() {
  return (
    <Box>
      <PageHeader
        title="Backups"
        description="Scheduled backups of your web apps and databases, checked by reading them back."
      />
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <KindCard
            to={backupPaths.list('webapp')}
            title="Web app backups"
            text="The files of a web app, on a schedule; restore all of it or one path."
            icon={LanguageOutlined}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <KindCard
            to={backupPaths.list('database')}
            title="Database backups"
            text="A database dumped while it runs; restore it in place or into another."
            icon={StorageOutlined}
          />
        </Grid>
      </Grid>
      <Stack spacing={2}>
        <CreditCard />
        <StorageCard />
        <RecoveryKeyCard />
      </Stack>
    </Box>
  );
}
