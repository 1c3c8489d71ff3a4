// `npm run lint`. TypeScript gets the type-aware rules; the plain JavaScript (host and e2e tests, fixtures,
// scripts, bench) gets the JavaScript set. Formatting is prettier's job (`npm run format:check`), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'out/', '.vscode-test/', '.artifacts/', 'node_modules/'] },
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
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'no-shadow': 'off',
      '@typescript-eslint/no-shadow': ['error', { ignoreTypeValueShadow: true, ignoreFunctionTypeParameterNameValueShadow: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Implementations of async interfaces (token stores, collectors) need not await anything.
      '@typescript-eslint/require-await': 'off',
      // Stripping control characters from hostile server text is deliberate (core/terminal, markdown, oauth).
      'no-control-regex': 'off',
    },
  },
  {
    // Tests destructure fixture helpers and assertions (`const { startHttpFixture } = await launch()`): plain
    // functions that the types declare as methods, so every destructuring would be a false alarm.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.node, ...globals.mocha },
    },
    rules: {
      'no-shadow': 'error',
      'no-control-regex': 'off',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // CommonJS: the host and e2e tests, the harness, the fake model extension.
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  // Playwright runs these callbacks in the workbench page (page.evaluate, waitForFunction).
  { files: ['test/e2e/**/*.js', 'scripts/host-harness.mjs'], languageOptions: { globals: globals.browser } },
);
