import { Box, Button, Chip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { releasePaths } from './links';
import { CheckButton } from './CheckButton';
import { MirrorCard } from './MirrorCard';
import { OFFICIAL_HOME } from './official';
import { appReleases } from './resource';
import { type App, APP_LABELS, type OfficialApp } from './urls';

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;
const name = (r: RaRecord) => `${APP_LABELS[r.app as App] ?? String(r.app)} ${String(r.version)}`;

/** /admin/app-releases: the releases the installers may fetch, and the mirror they fetch from. */
export default function AdminAppReleasesPage() {
  const add = (
    <Button component={Link} to={releasePaths.add} variant="contained" startIcon={<Add />}>
      Add release
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={appReleases}
        title="App releases"
        description="Where the one-click installers get each app: Debian's package on the server (apt checks its signature; works offline), the project's official releases (Check for new releases pins the newest version and its published checksum), or a release pinned by hand. The default of an app is the one installed."
        actions={add}
        before={<MirrorCard />}
        sort={{ field: 'app', order: 'ASC' }}
        render={{
          app: (r: RaRecord) => APP_LABELS[r.app as App] ?? String(r.app),
          source: (r: RaRecord) =>
            r.source === 'debian'
              ? 'Debian package'
              : r.source === 'official'
                ? `Official (${OFFICIAL_HOME[r.app as OfficialApp] ?? String(r.app)})`
                : 'Pinned by hand',
          version: (r: RaRecord) => (
            <Box>
              <Typography sx={mono}>
                {r.source === 'debian'
                  ? 'the server’s package'
                  : r.version
                    ? String(r.version)
                    : 'not checked yet'}
              </Typography>
              <CheckButton record={r} />
            </Box>
          ),
          format: (r: RaRecord) => <Typography sx={mono}>{String(r.format)}</Typography>,
          is_default: (r: RaRecord) =>
            r.is_default ? <Chip size="small" color="primary" label="Default" /> : '—',
          sha256: (r: RaRecord) =>
            r.sha256 ? (
              <Typography sx={mono} title={String(r.sha256)}>
                {String(r.sha256).slice(0, 12)}…
              </Typography>
            ) : (
              '—'
            ),
        }}
        editLink={(r) => releasePaths.edit(r.id)}
        deletable={{
          what: name,
          name,
          consequence: (r) =>
            `Installers no longer fetch this release; apps already installed keep their files. Without another release of ${APP_LABELS[r.app as App] ?? String(r.app)}, its installer refuses to run.`,
        }}
        empty={{
          title: 'No releases pinned',
          text: 'The installers refuse to run until a release of their app is pinned here.',
          icon: Inventory2Outlined,
          action: add,
        }}
      />
    </Box>
  );
}
