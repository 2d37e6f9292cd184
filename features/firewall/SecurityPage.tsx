import { Box } from '@mui/material';
import { PageHeader } from '../../src/generic/PageHeader';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { Slot } from '../../src/shell/slots';
import { CountriesCard } from './CountriesCard';
import { DenyListCard } from './DenyListCard';
import { ListsCard } from './ListsCard';
import { PortsCard } from './PortsCard';
import { SettingsCard } from './SettingsCard';
import { TempRulesCard } from './TempRulesCard';
import type { FirewallSettings } from './resource';
import { useFirewallQuery } from './useFirewall';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /** The security page's cards after the firewall's lists (features/fail2ban: attempt limits). */
    'server.security': { sid: number };
  }
}

/**
 * /security/{id}: the server's firewall (nftables, CSF's model), with fail2ban's attempt
 * limits (features/fail2ban) after the lists.
 */
export default function SecurityPage() {
  const { sid, online, server } = useServerPage();
  const settings = useFirewallQuery<FirewallSettings>(sid, 'csf', 'read');
  const running = Boolean(settings.data?.enabled);
  return (
    <Box>
      <PageHeader
        title="Security"
        description={`The firewall of ${shownName(server).name}: allowed and denied addresses, temporary rules, open ports and DDoS limits.`}
      />
      <OfflineNotice what="Changing a running firewall" />
      <SettingsCard sid={sid} online={online} />
      <ListsCard sid={sid} online={online} running={running} />
      <Slot id="server.security" props={{ sid }} />
      <TempRulesCard sid={sid} online={online} />
      <PortsCard sid={sid} />
      <CountriesCard sid={sid} />
      <DenyListCard sid={sid} online={online} running={running} />
    </Box>
  );
}
