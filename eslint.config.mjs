// The type-aware lint of every TypeScript file: `npm run lint` (with Biome's format check), zero warnings, in CI.
// The rule set is typescript-eslint's `recommendedTypeChecked`, with the rules issue 33 names turned on besides it.
// Turned off, each with its reason (docs/architecture.md, "Formatting and lint"):
// - in tests and test helpers only: `no-non-null-assertion` (a test states what it expects to be there; a missing value
//   fails the test, which is the point), and the `no-unsafe-*` family with `no-explicit-any` (a test reads what the
//   code under test wrote — report.json, a HAR, a child's output — as parsed JSON and asserts on it: typing every such
//   read would restate the very model the test checks).
// - in .mjs files (the few that run before TypeScript is loaded): every type-aware rule, which needs the types they
//   lack.
import tseslint from 'typescript-eslint'

const TESTS = ['**/*.test.ts', '**/testing*.ts', '**/*-testing.ts', 'test-setup/**/*.ts', 'fixtures/**/*.ts']

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', '**/*.json'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A concurrent runner: a promise nobody awaits is a rejection nobody sees — a verdict lost.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Statuses, reasons, check kinds, faults: a case added to a union is a case every switch over it must say.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'no-nested-ternary': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      // `_name` says "not used, on purpose" (a parameter a signature needs; a key left out of a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: TESTS,
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
)
