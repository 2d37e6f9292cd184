/**
 * The catalogue's first contents (migration 0017_easyphp). `php{version}-common` and the other
 * packages marked "host" are those a Debian 12 php8.2-fpm install brings (the sandbox's too):
 * their extensions are available at once; the rest wait for their package.
 */
export interface SeedExtension {
  name: string;
  label: string;
  description: string;
  package: string;
}

const common = 'php{version}-common';

export const DEFAULT_EXTENSIONS: readonly SeedExtension[] = [
  {
    name: 'opcache',
    label: 'OPcache',
    description: 'Keeps compiled scripts in memory',
    package: 'php{version}-opcache',
  },
  {
    name: 'calendar',
    label: 'Calendar',
    description: 'Calendar conversions (Julian days, Easter)',
    package: common,
  },
  {
    name: 'exif',
    label: 'EXIF',
    description: 'Reads the metadata of JPEG and TIFF images',
    package: common,
  },
  { name: 'ftp', label: 'FTP', description: 'FTP client functions', package: common },
  {
    name: 'gettext',
    label: 'Gettext',
    description: 'Translations with GNU gettext',
    package: common,
  },
  { name: 'sockets', label: 'Sockets', description: 'Low-level socket functions', package: common },
  {
    name: 'shmop',
    label: 'Shared memory',
    description: 'Shared memory segments (shmop)',
    package: common,
  },
  {
    name: 'sysvmsg',
    label: 'System V messages',
    description: 'System V message queues',
    package: common,
  },
  {
    name: 'sysvsem',
    label: 'System V semaphores',
    description: 'System V semaphores',
    package: common,
  },
  {
    name: 'sysvshm',
    label: 'System V shared memory',
    description: 'System V shared memory',
    package: common,
  },
  {
    name: 'fileinfo',
    label: 'Fileinfo',
    description: "Guesses a file's type from its content",
    package: common,
  },
  {
    name: 'mysqli',
    label: 'MySQLi',
    description: 'MySQL and MariaDB client (mysqli)',
    package: 'php{version}-mysql',
  },
  {
    name: 'pdo_mysql',
    label: 'PDO MySQL',
    description: 'MySQL and MariaDB driver for PDO',
    package: 'php{version}-mysql',
  },
  {
    name: 'gd',
    label: 'GD',
    description: 'Image creation and editing',
    package: 'php{version}-gd',
  },
  {
    name: 'curl',
    label: 'cURL',
    description: 'HTTP and other transfers with libcurl',
    package: 'php{version}-curl',
  },
  {
    name: 'mbstring',
    label: 'Multibyte strings',
    description: 'Multibyte (UTF-8) string functions',
    package: 'php{version}-mbstring',
  },
  { name: 'xml', label: 'XML', description: 'XML parser', package: 'php{version}-xml' },
  {
    name: 'zip',
    label: 'Zip',
    description: 'Reads and writes zip archives',
    package: 'php{version}-zip',
  },
  {
    name: 'intl',
    label: 'Intl',
    description: 'Internationalisation (ICU)',
    package: 'php{version}-intl',
  },
  {
    name: 'bcmath',
    label: 'BCMath',
    description: 'Arbitrary precision arithmetic',
    package: 'php{version}-bcmath',
  },
  {
    name: 'soap',
    label: 'SOAP',
    description: 'SOAP client and server',
    package: 'php{version}-soap',
  },
  {
    name: 'imagick',
    label: 'Imagick',
    description: 'Image processing with ImageMagick',
    package: 'php{version}-imagick',
  },
  { name: 'redis', label: 'Redis', description: 'Redis client', package: 'php{version}-redis' },
];
