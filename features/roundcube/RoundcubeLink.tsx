import { Button } from '@mui/material';
import MailOutline from '@mui/icons-material/MailOutline';
import { Link } from 'react-router-dom';
import { useApp } from '../webapps/pagesApi';

/** On a Roundcube app's summary: its page, where its server's mailboxes open signed in. */
export function RoundcubeLink({ sid, appId }: { sid: number; appId: number }) {
  const { app } = useApp();
  if (app?.webapp_type !== 'roundcube') return null;
  return (
    <Button
      variant="outlined"
      startIcon={<MailOutline />}
      component={Link}
      to={`/roundcube/${sid}/${appId}`}
    >
      Roundcube
    </Button>
  );
}
