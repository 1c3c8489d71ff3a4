// `npm run lint`. TypeScript gets the type-aware rules; the plain JavaScript (host and e2e tests, fixtures,
// scripts, bench) gets the JavaScript set and the promise rules. Formatting is prettier's job (`npm run format:check`), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'out/', '.vscode-test/', '.artifacts/', 'node_modules/', 'bench/.out/'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // Promise.all over "a load in flight, or nothing to wait for" (Catalog.ready) is meant.
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'no-shadow': 'off',
      '@typescript-eslint/no-shadow': [
        'error',
        { ignoreTypeValueShadow: true, ignoreFunctionTypeParameterNameValueShadow: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // `let x; const cb = () => use(x!); x = make(cb)`: a callback that must exist before what it reads.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Implementations of async interfaces (token stores, collectors) need not await anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests destructure fixture helpers and assertions (`const { startHttpFixture } = await launch()`): plain
    // functions that the types declare as methods, so every destructuring would be a false alarm.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // The JavaScript is parsed with types too (tsconfig.eslint.json allows JS), for the promise rules alone:
    // a floating promise in a host test or a fixture is as wrong as in src/.
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.node, ...globals.mocha },
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Own bindings named like a global (`const crypto = require('node:crypto')`, mocha's `run`) are fine.
      'no-redeclare': ['error', { builtinGlobals: false }],
      'no-shadow': 'error',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // CommonJS: the host and e2e tests, the harness, the fake model extension.
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  // Playwright runs these callbacks in the workbench page (page.evaluate, waitForFunction).
  { files: ['test/e2e/**/*.js', 'scripts/host-harness.mjs'], languageOptions: { globals: globals.browser } },
);
