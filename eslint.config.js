import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import stackdeck from './eslint/rules.mjs';
import globals from 'globals';

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
    // No import cycles (type-only imports included), and the layers of DESIGN.md: the panel,
    // the agent and the browser share code only through resources/ (eslint/rules.mjs).
    files: ['{resources,agent,server,src,dataProvider,features}/**/*.{ts,tsx}'],
    plugins: { stackdeck },
    rules: {
      'stackdeck/no-cycle': 'error',
      'stackdeck/layers': 'error',
    },
  },
  {
    // A handler reads its query and body as its declaration typed them (server/http/handlers.ts):
    // a cast would hide a schema that is missing or too loose, and skip the request's validation.
    files: ['{server,features}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['TSAsExpression', 'TSTypeAssertion'].map((cast) => ({
          selector: `${cast} > MemberExpression.expression[object.name="ctx"][property.name=/^(query|body)$/]`,
          message:
            'No cast of ctx.query / ctx.body: declare the schema (query/body/filters) and the handler gets its type.',
        })),
      ],
    },
  },
  {
    // A feature uses another only through the doors it offers (api.ts, serverApi.ts, agentApi.ts,
    // pagesApi.tsx), and features import in no circle: the rest goes through events (server/events)
    // and page slots (src/shell/slots.tsx). DESIGN.md, "Features talk through events, not imports".
    files: ['features/**/*.{ts,tsx}'],
    plugins: { stackdeck },
    rules: { 'stackdeck/feature-api': 'error' },
  },
  {
    // resources/ imports zod and itself, nothing else (relative paths leaving it are caught above).
    files: ['resources/**/*.ts'],
    ignores: ['resources/agent/fingerprint.ts', 'resources/agent/addressPolicy.ts'],
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
    // A feature's declaration and pure helpers are loaded by all three programs, like resources/.
    files: ['features/*/*.ts'],
    ignores: [
      'features/*/server*.ts',
      'features/*/agent*.ts',
      'features/*/routes.ts',
      // Browser only: its menu entries name their MUI icons.
      'features/*/menu.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.)',
              message:
                "A feature's resource.ts and helpers are loaded by the panel, the agent and the browser: only zod and relative imports.",
            },
          ],
        },
      ],
    },
  },
  {
    // The exceptions: an SSH key fingerprint and the private address ranges, shared by the panel
    // and the agent (both Node), kept from the browser by stackdeck/layers.
    files: ['resources/agent/fingerprint.ts', 'resources/agent/addressPolicy.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|node:(crypto|net)$|\\.)',
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
