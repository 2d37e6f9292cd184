import { Link as MuiLink } from '@mui/material';
import { Link } from 'react-router-dom';
import { easyPhpPaths } from './links';

/** Where a PHP version the server lacks is installed, for the web app form. */
export function PhpVersionHint({ sid }: { sid: number }) {
  return (
    <>
      {' '}
      Need another?{' '}
      <MuiLink component={Link} to={easyPhpPaths.server(sid)}>
        Install a PHP version on EasyPHP
      </MuiLink>
      .
    </>
  );
}
