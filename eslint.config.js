// One lint for the whole repository (`pnpm lint`; `pnpm test` runs it first). Besides the usual TypeScript and React
// hooks rules it keeps the seams the code is built around, so that they hold by tool rather than by memory.
import { readdirSync } from 'node:fs'
import { defineConfig } from 'eslint/config'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { importX } from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import globals from 'globals'

const dirsIn = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name)

const apps = dirsIn('./apps/')
const features = dirsIn('./apps/web/src/features/')

const DRIVER = /^(better-sqlite3|pg|pg-.+)$/
const DRIVER_MESSAGE = 'Only packages/db talks to the database driver: ask it for what you need.'
const driverLoads = [
  { selector: `ImportExpression[source.value=${DRIVER}]`, message: DRIVER_MESSAGE },
  { selector: `CallExpression[arguments.0.value=${DRIVER}]`, message: DRIVER_MESSAGE },
]
const ENGINE_MESSAGE = 'Only packages/db knows which engine runs: ask it for the expression or capability (engine-sql.ts).'
const ENGINE = /^(sqlite|postgres)$/
const engineChecks = [
  { selector: `BinaryExpression > Literal[value=${ENGINE}]`, message: ENGINE_MESSAGE },
  { selector: `SwitchCase > Literal[value=${ENGINE}]`, message: ENGINE_MESSAGE },
  { selector: "MemberExpression[property.name='engine']", message: ENGINE_MESSAGE },
]
const engineImports = { name: '@tempbox/db', importNames: ['engineOf', 'matchAll'], message: ENGINE_MESSAGE }
const HANDLE_MESSAGE = "Apps hold no raw database connection: packages/db offers what they do with it in the apps' words."
const rawHandle = [
  { selector: "MemberExpression[property.name='sqlite']", message: HANDLE_MESSAGE },
  { selector: "ObjectPattern > Property[key.name='sqlite']", message: HANDLE_MESSAGE },
  { selector: "TSIndexedAccessType[indexType.literal.value='sqlite']", message: HANDLE_MESSAGE },
]

export default defineConfig(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/coverage/', '**/.stryker-tmp/', '.stryker-tmp-*/', '**/reports/', 'bench/results/', 'data/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are the code's way to say "deliberately unused" (callbacks' fixed parameter lists).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Mail and file names are sanitised by matching control characters on purpose; the rule is for accidental ones.
      'no-control-regex': 'off',
    },
  },
  {
    // Kysely's convention: a migration runs against the schema as it was then, not today's typed one.
    files: ['packages/db/src/migrations/**', 'packages/db/test/message-content.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The rules of hooks and complete effect dependencies. The plugin's React Compiler rules (refs read during render,
    // setState in effects) are left out: the app is not compiled by it, and they would ask for rewrites of working hooks.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
    languageOptions: { globals: { ...globals.browser } },
  },

  // Boundaries: apps never import another app (sources or tests), web features never import each other, and the web's
  // layout and shared code (components, lib, stores) import no feature. Imports resolve as TypeScript resolves them, and
  // one that does not resolve is itself an error, so a boundary cannot be passed by a path the resolver fails on.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'tests/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      // The MCP SDK maps `./*` types to `*.d.ts`, so its `…/mcp.js` paths resolve (for TypeScript and Node) but not here.
      'import-x/no-unresolved': ['error', { ignore: ['^@modelcontextprotocol/sdk/'] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...apps.map((app) => ({
              target: `./apps/${app}`,
              from: './apps',
              except: [`./${app}`],
              message: 'An app never imports another app: what both need belongs in a package under packages/.',
            })),
            ...features.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'Web features never import each other: move what both need to src/lib or src/components.',
            })),
            {
              target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/stores'],
              from: './apps/web/src/features',
              message: 'Layout and shared web code import no feature: src/app puts features into the layout through its slots.',
            },
          ],
        },
      ],
    },
  },

  // No import circles in the web app: in a cycle, load order decides which import is still undefined.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    settings: { 'import-x/extensions': ['.ts', '.tsx'], 'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] } },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },

  // The storage seam: packages/db is the only home of a database driver. Elsewhere no driver is imported (types
  // included), required or loaded with import(); and the apps' code holds no raw connection (the `sqlite` handle
  // createDb opens) — it asks packages/db for what it needs in its own words.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['packages/db/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: DRIVER.source, message: DRIVER_MESSAGE }] }],
      'no-restricted-syntax': ['error', ...driverLoads],
    },
  },
  // Nor does it ask which engine runs (engineOf, `.engine`, a comparison with 'sqlite' or 'postgres'): each difference
  // is a function of packages/db. Tests may, to set up engine-specific fixtures.
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [engineImports], patterns: [{ regex: DRIVER.source, message: DRIVER_MESSAGE }] }],
      'no-restricted-syntax': ['error', ...driverLoads, ...rawHandle, ...engineChecks],
    },
  },

  // The web imports only types from @tempbox/types: a value from its index pulls TypeBox and every API schema into the
  // browser's first JavaScript. Shared values live in @tempbox/types/constants.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@tempbox/types', allowTypeImports: true, message: 'Import values from @tempbox/types/constants: the index pulls TypeBox into the browser.' }] },
      ],
    },
  },

  // No source file over 350 lines: past that a file holds more than one concern and is read by searching. Migrations,
  // tests and locale tables are lists rather than logic, so they are left out.
  {
    files: ['apps/*/src/**/*.{ts,tsx,js,mjs}', 'packages/*/src/**/*.{ts,tsx,js,mjs}', 'bench/**/*.{ts,js,mjs}', 'scripts/**/*.{ts,js,mjs}'],
    ignores: ['**/migrations/**', '**/*.test.{ts,tsx}', '**/test/**', 'packages/i18n/src/bundles/**'],
    rules: { 'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }] },
  },
)
