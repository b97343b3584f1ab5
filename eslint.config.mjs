// One lint set-up for the whole repository (npm run lint).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Services laid out as docs/structure.md describes (capability folders;
 * models and repositories; domain modules; the RPC at the edge; wiring in
 * main.ts). Their layering is enforced below; a service joins this list
 * when it is migrated.
 */
const LAYERED_SERVICES = ['catalog-marketplace-service', 'fraud-service', 'incentive-service', 'referral-service', 'reward-service', 'webhook-service'];

const layered = (...globs) => LAYERED_SERVICES.flatMap((service) => globs.map((glob) => `apps/${service}/src/${glob}`));
/** Files outside the layers: wiring, tests and their support. */
const OUTSIDE_LAYERS = ['**/main.ts', '**/*.spec.ts', '**/testing/**'];

const transport = [
  { group: ['@connectrpc/*', '@ris/rpc'], message: 'Transport belongs to the *.rpc.ts edge: throw a DomainError (@ris/domain-errors) and take values as arguments.' },
  { group: ['**/*.rpc'], message: 'The edge calls the domain, never the other way round.' },
];
const models = { group: ['**/*.model'], allowTypeImports: true, message: "A model's documents are read and written through its repository (its types may be imported)." };
const otherModels = { group: ['../**/*.model'], allowTypeImports: true, message: "Another capability's documents are read through its repository." };
const repositories = { group: ['**/*.repository'], allowTypeImports: true, message: 'The edge calls domain modules, which call repositories (types may be imported).' };
const rawQueries = [
  { name: 'mongoose', allowTypeImports: true, message: 'Queries live in repositories (*.repository.ts) and schemas in models (*.model.ts).' },
  { name: '@ris/mongo', importNames: ['AppScoped'], message: 'Filters are written in repositories: call a named query of one.' },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '.nx/**',
      'coverage/**',
      'libs/contracts/src/gen/**',
      'apps/dashboard/src/api/schema.d.ts',
      'libs/sdk/src/generated/**',
      'libs/sdk/dist/**',
      '.data/**',
      '.run/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/*/src/**', '../../apps/**'], message: 'Apps do not import each other; share through libs/.' },
          ],
        },
      ],
    },
  },
  {
    // Domain modules of a layered service: no transport, no raw queries, models through their repositories.
    files: layered('**/*.ts'),
    ignores: [...OUTSIDE_LAYERS, '**/*.rpc.ts', '**/*.repository.ts', '**/*.model.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: rawQueries, patterns: [...transport, models] }] },
  },
  {
    // Repositories and models: storage only; another capability's model only through its repository.
    files: layered('**/*.repository.ts', '**/*.model.ts'),
    ignores: OUTSIDE_LAYERS,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...transport, otherModels] }] },
  },
  {
    // The RPC edge: requests in, messages out; it calls domain modules, not storage.
    files: layered('**/*.rpc.ts'),
    ignores: OUTSIDE_LAYERS,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: rawQueries, patterns: [models, repositories] }] },
  },
  {
    // Tests assert on parsed JSON field by field.
    files: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The dashboard runs in the browser (React, JSX); its tests in jsdom. No `any`, even in its tests.
    files: ['apps/dashboard/**/*.{ts,tsx}'],
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', console: 'readonly', URL: 'readonly', URLSearchParams: 'readonly' },
    },
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['tools/**/*.mjs', 'examples/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', fetch: 'readonly' } },
  },
);
