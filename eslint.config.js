import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The contracts index pulls every zod schema into whatever imports it; the home page must not.
const contractsIndex = { name: '@bulkcart/contracts', message: "Import a module, e.g. '@bulkcart/contracts/routes'." };
// The router is chosen in one file (decision 006); pages use its hooks and links from there.
const routerOutsideItsFile = [
  { name: 'wouter', message: 'Import the router from lib/router.tsx.' },
  { name: 'wouter/use-browser-location', message: 'Import the router from lib/router.tsx.' },
];

// The web app imports across folders through `@/` (apps/web/src): a path that says where the module
// lives reads the same from every file and survives a move; `./` stays for a module's own folder.
const upwardImport = { regex: '^\\.\\./', message: "Import through '@/…' (apps/web/src), not '../'." };

/**
 * Feature boundaries (docs/architecture.md): a feature imports shared code (components/, lib/,
 * contracts) and itself, never another feature or the app frame; the app composes features. One block
 * per folder under features/, so a new feature is covered without editing this file.
 */
const features = readdirSync(new URL('./apps/web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = features.map((feature) => {
  const others = features.filter((name) => name !== feature).join('|');
  return {
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [contractsIndex, ...routerOutsideItsFile],
          patterns: [
            {
              regex: `^@/features/(?:${others})(?:/|$)`,
              message: `Features do not import each other: move what '${feature}' needs into components/ or lib/, or let app/ compose them.`,
            },
            { regex: '^@/app(?:/|$)', message: 'Features do not import the app frame; app/ imports features.' },
            upwardImport,
          ],
        },
      ],
    },
  };
});

/**
 * Server module walls (docs/architecture.md): a module imports another only through its index.ts, what
 * it chose to show; the session (accounts/session.ts) is the one shared inside. One block per folder
 * under modules/, so a new module is covered without editing this file. Tests may reach anywhere.
 */
const serverModules = readdirSync(new URL('./apps/server/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverModuleWalls = serverModules.map((module) => {
  const others = serverModules.filter((name) => name !== module).join('|');
  return {
    files: [`apps/server/src/modules/${module}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\./(?:\\.\\./modules/)?(?!accounts/session\\.ts$)(?:${others})/(?!index\\.ts$)`,
              message: `Modules import each other through their index.ts only: export what '${module}' needs from the other module's index.ts.`,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'apps/server/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: [contractsIndex, ...routerOutsideItsFile], patterns: [upwardImport] }],
      // One spinner (components/spinner.tsx): a daisyUI `loading` class written anywhere else is a hand-made one.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/\\bloading-spinner\\b/], TemplateElement[value.raw=/\\bloading-spinner\\b/]',
          message: 'Use <Spinner /> (components/spinner.tsx), not a hand-made loading span.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/components/spinner.tsx'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [contractsIndex, ...routerOutsideItsFile],
          // Shared code sits below the features and the frame, which compose it.
          patterns: [{ regex: '^@/(?:features|app)(?:/|$)', message: 'Shared code (components/, lib/) does not import features or app/.' }, upwardImport],
        },
      ],
    },
  },
  ...featureBoundaries,
  ...serverModuleWalls,
  {
    files: ['apps/web/src/lib/router.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: [contractsIndex], patterns: [upwardImport] }] },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through config.ts.' }],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'e2e/**', '**/*.test.ts', 'apps/server/test/**'],
    rules: { 'no-console': 'off' },
  },
);
