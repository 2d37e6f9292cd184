import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/** The top-level folders, for the layer boundaries below (see DESIGN.md, "A feature is a folder"). */
const BROWSER = ['./src', './dataProvider'];
const NOT_RESOURCES = [
  './server',
  './agent',
  './src',
  './dataProvider',
  './tests',
  './scripts',
  './bench',
];

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles anywhere. import-x skips `import type` edges (they vanish at runtime);
    // tests/unit/import-cycles.test.ts checks those too.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json', '.node'] }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The layers: resources/ is loaded by all three programs; the agent, the panel and the
      // browser share code only through it.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './resources',
              from: NOT_RESOURCES,
              message:
                'resources/ is loaded by the panel, the agent and the browser: only zod and resources/.',
            },
            {
              target: './agent',
              from: ['./server', ...BROWSER],
              message: 'agent/ shares code with the panel and the browser only through resources/.',
            },
            {
              target: './server',
              from: ['./agent', ...BROWSER],
              message:
                'server/ shares code with the agent and the browser only through resources/.',
            },
            {
              target: BROWSER,
              from: ['./server', './agent'],
              message:
                'src/ and dataProvider/ share code with the panel and the agent only through resources/.',
            },
            {
              target: BROWSER,
              from: './resources/agent/fingerprint.ts',
              message:
                'resources/agent/fingerprint.ts needs node:crypto: not for the browser bundle.',
            },
          ],
        },
      ],
    },
  },
  {
    // resources/ imports zod and itself, nothing else (relative paths leaving it are caught above).
    files: ['resources/**/*.ts'],
    ignores: ['resources/agent/fingerprint.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.)',
              message:
                'resources/ is loaded by the panel, the agent and the browser: only zod and resources/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one exception: an SSH key fingerprint shared by the panel and the agent (both Node),
    // kept from the browser by the zone above.
    files: ['resources/agent/fingerprint.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|node:crypto$|\\.)',
              message:
                'resources/ is loaded by the panel, the agent and the browser: only zod and resources/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
