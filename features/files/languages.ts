/** Pure: the editor's language by file name (tests/unit/files-names.test.ts). */
/** Monaco's language id for a file name (basic languages only). */
export function languageOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const byExt: Record<string, string> = {
    php: 'php',
    phtml: 'php',
    js: 'javascript',
    mjs: 'javascript',
    cjs: 'javascript',
    jsx: 'javascript',
    ts: 'typescript',
    tsx: 'typescript',
    // JSON's own mode is a language service (left out): JavaScript's colouring reads it well.
    json: 'javascript',
    css: 'css',
    scss: 'scss',
    less: 'less',
    html: 'html',
    htm: 'html',
    xml: 'xml',
    svg: 'xml',
    md: 'markdown',
    py: 'python',
    rb: 'ruby',
    sh: 'shell',
    bash: 'shell',
    yml: 'yaml',
    yaml: 'yaml',
    sql: 'sql',
    ini: 'ini',
    conf: 'ini',
    env: 'ini',
    go: 'go',
    java: 'java',
    twig: 'twig',
  };
  if (name === '.htaccess' || name === 'nginx.conf') return 'ini';
  return byExt[ext] ?? 'plaintext';
}
