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
    // The end-to-end tests read JSON response bodies whose shapes the assertions themselves check;
    // typing each body would restate the API's DTOs in every suite.
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
