import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import StarOutline from '@mui/icons-material/StarOutline';
import { useNotify } from 'ra-core';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { toAsciiDomain } from './names';
import { useApp } from './useApp';

type Pointing = Record<string, { points: boolean; addresses: string[] } | 'checking'>;

/**
 * /domains/{serverId}/{webAppId}: the names the app answers to. Add, remove and make primary
 * change the whole list at once (PATCH domains), so the server writes the vhost once; each
 * name can be checked against the server's address.
 */
export default function DomainsPage() {
  const { sid, app, change, saving } = useApp();
  const notify = useNotify();
  const dp = useStackdeckData();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pointing, setPointing] = useState<Pointing>({});
  if (!app) return null;
  const domains = app.domains;

  const save = async (next: string[], done: string) => {
    setProblem(null);
    try {
      await change({ domains: next });
      notify(done, { type: 'success' });
      return true;
    } catch (error) {
      setProblem(errorMessage(error, 'The domains could not be changed.'));
      return false;
    }
  };
  const add = async () => {
    const ascii = toAsciiDomain(name);
    if (!ascii) return setProblem('A domain such as example.com: letters, digits and hyphens');
    if (domains.includes(ascii)) return setProblem(`${ascii} is one of this app's already`);
    if (await save([...domains, ascii], `${ascii} was added.`)) setName('');
  };
  const check = async (domain: string) => {
    setPointing((p) => ({ ...p, [domain]: 'checking' }));
    try {
      const answer = await dp.action<{ points: boolean; addresses: string[] }>(
        'webstacks',
        'aRecord',
        { params: { sid }, query: { domain } },
      );
      setPointing((p) => ({ ...p, [domain]: answer }));
    } catch (error) {
      notify(errorMessage(error, 'The check failed.'), { type: 'error' });
      setPointing((p) => Object.fromEntries(Object.entries(p).filter(([d]) => d !== domain)));
    }
  };
  return (
    <>
      <PageHeader title="Domains" description={`The names ${app.name} answers to.`} />
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Card variant="outlined" sx={{ mb: 2 }}>
        <List aria-label="Domains">
          {domains.map((domain, index) => {
            const seen = pointing[domain];
            return (
              <ListItem
                key={domain}
                secondaryAction={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Button size="small" onClick={() => void check(domain)}>
                      {seen === 'checking' ? 'Checking…' : 'Check DNS'}
                    </Button>
                    {index > 0 ? (
                      <Tooltip title={`Make ${domain} primary`}>
                        <IconButton
                          aria-label={`Make ${domain} primary`}
                          disabled={saving}
                          onClick={() =>
                            void save(
                              [domain, ...domains.filter((d) => d !== domain)],
                              `${domain} is the primary domain.`,
                            )
                          }
                        >
                          <StarOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                    <Tooltip title={`Remove ${domain}`}>
                      <span>
                        <IconButton
                          aria-label={`Remove ${domain}`}
                          disabled={saving || domains.length === 1}
                          onClick={() =>
                            void save(
                              domains.filter((d) => d !== domain),
                              `${domain} was removed.`,
                            )
                          }
                        >
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Stack>
                }
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{domain}</span>
                      {index === 0 ? <Chip size="small" label="Primary" /> : null}
                    </Stack>
                  }
                  secondary={
                    seen && seen !== 'checking'
                      ? seen.points
                        ? 'Points at this server'
                        : `Does not point at this server (${seen.addresses.join(', ') || 'no A record'})`
                      : undefined
                  }
                />
              </ListItem>
            );
          })}
        </List>
      </Card>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <TextField
          label="Add a domain"
          value={name}
          onChange={(e) => setName(e.target.value)}
          size="small"
          sx={{ minWidth: 320 }}
        />
        <Button type="submit" variant="contained" disabled={saving || !name.trim()}>
          Add domain
        </Button>
      </Stack>
    </>
  );
}
