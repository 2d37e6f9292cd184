/**
 * What the agent reads of a PHP version's files and programs, as pure functions (unit-tested):
 * the extension a conf.d entry enables, and the modules `php-fpmX.Y -m` lists.
 */

/** `20-calendar.ini` (phpenmod's `<priority>-<name>.ini`) -> calendar; anything else -> null. */
export function confdName(file: string): string | null {
  return /^\d+-([a-z][a-z0-9_]{1,31})\.ini$/.exec(file)?.[1] ?? null;
}

/**
 * The module names `php-fpmX.Y -m` lists, lower-case, as ini names: `Zend OPcache` -> opcache;
 * the section headings (`[PHP Modules]`) left out.
 */
export function modulesIn(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) =>
        line
          .trim()
          .toLowerCase()
          .replace(/^zend /, ''),
      )
      .filter((line) => line && !line.startsWith('[')),
  );
}
