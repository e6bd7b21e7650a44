// @ts-check
// typescript-eslint's type-checked recommended rules on the TypeScript sources (floating and misused
// promises, values of type `any` flowing into typed code), with the compiler's program from
// tsconfig.json; the JavaScript scripts keep the rules that need no types. Formatting is Prettier's
// (eslint-config-prettier, last, turns off the rules it owns).
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-import-layers.mjs';

/**
 * Which layer may import which (docs/architecture.md, "Layers"), checked by `layers/import-layers` on
 * the path each import resolves to. A file is governed by every entry whose `files` it is under.
 */
const LAYERS = [
  {
    files: 'libs/',
    mayNotImport: ['src/', 'migrations/', 'test/'],
    because: 'libs/ is framework-free TypeScript that the server and the command-line client share',
  },
  {
    files: 'src/common/',
    mayNotImport: [
      'src/modules/',
      'src/platform/',
      'src/plugins/',
      'src/integrations/',
      'src/device-enrollment/',
      'src/health/',
      'src/bin/',
      'src/*',
      'migrations/',
    ],
    because: 'src/common is the lowest layer of the application; migrations and plugins are wired by the entry points',
  },
  {
    files: 'src/modules/',
    mayNotImport: ['src/platform/', 'src/plugins/', 'src/integrations/', 'src/device-enrollment/'],
    because: 'the PKI and identity modules stand without the inventory platform, which builds on their users and tokens',
  },
  {
    files: 'src/platform/',
    mayNotImport: ['src/plugins/', 'src/integrations/', 'src/device-enrollment/'],
    because: 'the platform serves the plugins it is given; only the entry points name them',
  },
  {
    files: 'src/device-enrollment/',
    mayNotImport: ['src/plugins/', 'src/integrations/'],
    because: 'it joins the PKI modules and the platform through their ports; only the application module names it',
  },
  {
    files: 'src/integrations/',
    mayNotImport: ['src/modules/', 'src/platform/', 'src/plugins/', 'src/device-enrollment/'],
    because: 'the mail worker is a process of its own that reaches the platform over its API',
  },
  {
    files: 'migrations/',
    mayNotImport: ['src/modules/', 'src/platform/', 'src/plugins/'],
    because: "a migration is SQL on its own; the entry points add the plugins' migrations to the list",
  },
  {
    files: 'src/plugins/*/',
    mayImport: ['src/plugins/$1/', 'src/platform/plugin-api', 'libs/'],
    because: 'a plugin imports the platform only through src/platform/plugin-api.ts, and another plugin only if it depends on it',
  },
  { files: 'src/plugins/peering/', mayImport: ['src/plugins/routing/'], because: 'peering depends on routing' },
  {
    // The API module loads every core model; the manifest must load none (the cluster primary checks PLUGINS with it).
    files: 'src/plugins/*/manifest.ts',
    mayImport: ['src/platform/plugins/plugin-declaration', 'src/platform/plugins/plugin-settings'],
    because: 'a manifest loads no model',
  },
  {
    // A command-line entry point of a plugin reads the environment and opens the database, as src/bin's do.
    files: 'src/plugins/*/*.command.ts',
    mayImport: ['src/common/'],
    because: 'a command is an entry point',
  },
];

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'data/'] },
  eslint.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `const { key: _key, ...rest } = value` is how the code leaves a property out.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // An async method often implements an interface whose callers await it; dropping `async` where
      // nothing is awaited would turn a rejected promise into a synchronous throw.
      '@typescript-eslint/require-await': 'off',
      // Warned, not failed: values typed `unknown` or `{}` (JSON fields, row columns) passed to String()
      // or a template; each wants a typeof check or a typed row before it can be an error.
      '@typescript-eslint/no-base-to-string': 'warn',
      // Its check that asks `query<T>()` instead of `(await query()) as T` (both unchecked) would rewrite
      // every raw SQL read; off until that is done.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // Tests assemble what they test from any layer.
    files: ['src/**/*.ts', 'libs/**/*.ts', 'migrations/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'src/plugins/*/test/**'],
    plugins: { layers },
    rules: { 'layers/import-layers': ['error', { root: import.meta.dirname, layers: LAYERS }] },
  },
  {
    // The end-to-end tests (test/, and each plugin's test/ folder) read JSON response bodies whose
    // shapes the assertions themselves check; typing each body would restate the API's DTOs in every suite.
    files: ['test/**/*.ts', 'src/**/test/**/*.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Those bodies are `any`, as are Jest's asymmetric matchers (`expect.objectContaining`) in every
    // test; a floating or misused promise is still an error there.
    files: ['test/**/*.ts', 'src/**/test/**/*.ts', '**/*.e2e-spec.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The benchmarks and tool configs are CommonJS scripts for Node.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    // Module scripts for Node (deploy/kubernetes/validate.mjs).
    files: ['**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
  prettier,
);
