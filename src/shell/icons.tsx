import type { SvgIconComponent } from '@mui/icons-material';
import ApiOutlined from '@mui/icons-material/ApiOutlined';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import BackupOutlined from '@mui/icons-material/BackupOutlined';
import CloudOutlined from '@mui/icons-material/CloudOutlined';
import CreateOutlined from '@mui/icons-material/CreateOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DraftsOutlined from '@mui/icons-material/DraftsOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import ForwardOutlined from '@mui/icons-material/ForwardOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PieChartOutline from '@mui/icons-material/PieChartOutline';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import ReplyOutlined from '@mui/icons-material/ReplyOutlined';
import ReportOutlined from '@mui/icons-material/ReportOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import type { IconName, MenuIcon } from './menuTypes';

/**
 * The shell's own menu icons (src/shell/menus.ts), by name; a feature's entry brings its icon
 * component. Loaded with the layouts, never on /login.
 */
export const MENU_ICONS: Record<IconName, SvgIconComponent> = {
  dashboard: DashboardOutlined,
  activity: HistoryOutlined,
  key: VpnKeyOutlined,
  users: PeopleOutline,
  summary: SummarizeOutlined,
  email: EmailOutlined,
  autoresponder: ReplyOutlined,
  forward: ForwardOutlined,
  disk: PieChartOutline,
  inbox: InboxOutlined,
  compose: CreateOutlined,
  drafts: DraftsOutlined,
  sent: SendOutlined,
  spam: ReportOutlined,
  trash: DeleteOutline,
  archive: ArchiveOutlined,
  profile: PersonOutline,
  login: LoginOutlined,
  subscription: WorkspacePremiumOutlined,
  servers: CloudOutlined,
  package: Inventory2Outlined,
  coupon: LocalOfferOutlined,
  api: ApiOutlined,
  script: TerminalOutlined,
  plans: ReceiptLongOutlined,
  mail: EmailOutlined,
  backup: BackupOutlined,
  back: ArrowBack,
};

/** The component of an entry's icon: the shell's by name, or the feature's own. */
export const iconOf = (icon: MenuIcon): SvgIconComponent =>
  typeof icon === 'string' ? MENU_ICONS[icon] : icon;
