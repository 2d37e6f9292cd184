import { useState } from 'react';
import { Box, Button, Switch, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import { type RaRecord, useNotify, useRefresh } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { easyPhpPaths } from './links';
import { phpExtensions } from './resource';

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** The catalogue's availability status, switched in place (`PATCH admin/easyphp/{id}`). */
function AvailableSwitch({ record }: { record: RaRecord }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const change = async (on: boolean) => {
    setBusy(true);
    try {
      await dp.action('php-extensions', 'availability', {
        params: { id: record.id },
        body: { is_available: on },
      });
      notify(`${String(record.label)} ${on ? 'offered to users' : 'no longer offered'}.`, {
        type: 'success',
      });
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      checked={Boolean(record.is_available)}
      disabled={busy}
      onClick={(e) => e.stopPropagation()}
      onChange={(_, on) => void change(on)}
      slotProps={{ input: { 'aria-label': `Offer ${String(record.label)} to users` } }}
    />
  );
}

/** /admin/php-management: the PHP extensions users may switch on their servers. */
export default function AdminExtensionsPage() {
  const add = (
    <Button component={Link} to={easyPhpPaths.add} variant="contained" startIcon={<Add />}>
      Add extension
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={phpExtensions}
        title="PHP extensions"
        description="The extensions users see on their servers' EasyPHP page, and may switch for PHP-FPM when the server has them installed."
        actions={add}
        sort={{ field: 'name', order: 'ASC' }}
        render={{
          name: (r: RaRecord) => <Typography sx={mono}>{String(r.name)}</Typography>,
          package: (r: RaRecord) => (
            <Typography sx={mono}>{r.package ? String(r.package) : '—'}</Typography>
          ),
          php_versions: (r: RaRecord) => (
            <Typography variant="body2">
              {(r.php_versions as string[]).length
                ? (r.php_versions as string[]).join(', ')
                : 'All'}
            </Typography>
          ),
          is_available: (r: RaRecord) => <AvailableSwitch record={r} />,
        }}
        editLink={(r) => easyPhpPaths.edit(r.id)}
        deletable={{
          what: (r) => `the extension ${String(r.label)}`,
          consequence: () =>
            'Users no longer see it on EasyPHP; servers keep it as they have it (enabled or not).',
        }}
        empty={{
          title: 'No PHP extensions',
          text: 'Add the extensions users may switch on their servers.',
          icon: ExtensionOutlined,
          action: add,
        }}
      />
    </Box>
  );
}
