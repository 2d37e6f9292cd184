import type { SvgIconComponent } from '@mui/icons-material';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ApiOutlined from '@mui/icons-material/ApiOutlined';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import BackupOutlined from '@mui/icons-material/BackupOutlined';
import CachedOutlined from '@mui/icons-material/CachedOutlined';
import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import CloudOutlined from '@mui/icons-material/CloudOutlined';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import CreateOutlined from '@mui/icons-material/CreateOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import DraftsOutlined from '@mui/icons-material/DraftsOutlined';
import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import ForwardOutlined from '@mui/icons-material/ForwardOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import HttpsOutlined from '@mui/icons-material/HttpsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import LanOutlined from '@mui/icons-material/LanOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PieChartOutline from '@mui/icons-material/PieChartOutline';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import ReplyOutlined from '@mui/icons-material/ReplyOutlined';
import ReportOutlined from '@mui/icons-material/ReportOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import WebOutlined from '@mui/icons-material/WebOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import type { IconName } from './menus';

/** Icons of the menus (src/shell/menus.ts): loaded with the layouts, never on /login. */
export const MENU_ICONS: Record<IconName, SvgIconComponent> = {
  dashboard: DashboardOutlined,
  activity: HistoryOutlined,
  cron: ScheduleOutlined,
  database: StorageOutlined,
  php: CodeOutlined,
  key: VpnKeyOutlined,
  apps: AppsOutlined,
  security: SecurityOutlined,
  services: TuneOutlined,
  hostname: LanOutlined,
  users: PeopleOutline,
  stats: QueryStatsOutlined,
  supervisor: MemoryOutlined,
  summary: SummarizeOutlined,
  wordpress: WebOutlined,
  git: AccountTreeOutlined,
  folder: FolderOutlined,
  ftp: DriveFolderUploadOutlined,
  email: EmailOutlined,
  domain: PublicOutlined,
  ssl: HttpsOutlined,
  dbUsers: PeopleOutline,
  subdomain: SubdirectoryArrowRight,
  settings: SettingsOutlined,
  log: ReceiptLongOutlined,
  cache: CachedOutlined,
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
  dns: DnsOutlined,
  integration: HubOutlined,
  profile: PersonOutline,
  referral: CardGiftcardOutlined,
  login: LoginOutlined,
  subscription: WorkspacePremiumOutlined,
  support: SupportAgentOutlined,
  alert: NotificationsActiveOutlined,
  servers: CloudOutlined,
  package: Inventory2Outlined,
  coupon: LocalOfferOutlined,
  api: ApiOutlined,
  script: TerminalOutlined,
  plans: ReceiptLongOutlined,
  mail: EmailOutlined,
  backup: BackupOutlined,
  team: GroupsOutlined,
  back: ArrowBack,
  link: LinkOutlined,
};
