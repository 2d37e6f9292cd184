import type { AppSpec } from './resource';

/** The page a new app shows until its files arrive. */
export function placeholder(spec: AppSpec): { file: string; content: string } {
  if (spec.php_version === null)
    return {
      file: 'index.html',
      content: `<!doctype html>\n<title>${spec.domains[0]}</title>\n<p>${spec.domains[0]} is ready for its files.</p>\n`,
    };
  return {
    file: 'index.php',
    content: `<?php\n// ${spec.domains[0]} is ready for its files: replace this one.\necho '<!doctype html><title>${spec.domains[0]}</title><p>${spec.domains[0]} runs PHP ' . PHP_VERSION . '.</p>';\n`,
  };
}
