// @ts-check
// typescript-eslint's recommended rules without type information: the type-aware set took over two
// minutes on the 2-core machines, and `npm run typecheck` already runs the compiler. Formatting is
// Prettier's (eslint-config-prettier, last, turns off the rules it owns).
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'data/'] },
  eslint.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // `const { key: _key, ...rest } = value` is how the code leaves a property out.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The end-to-end tests (test/, and each plugin's test/ folder) read JSON response bodies whose
    // shapes the assertions themselves check; typing each body would restate the API's DTOs in every suite.
    files: ['test/**/*.ts', 'src/plugins/*/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The benchmarks and tool configs are CommonJS scripts for Node.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    // Module scripts for Node (deploy/kubernetes/validate.mjs).
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
  prettier,
);
