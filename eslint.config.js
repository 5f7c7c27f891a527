import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------
// Import boundaries between the workspace packages (docs/architecture.md, "Who imports whom").
// Each package may import of ours only what is listed for it, by package name (a relative path
// into another package's folder is refused). Test and bench code may import a little more: test
// support of the packages below it (`@doppel/<package>/testing/...`) and the SDK's verifier.
// ---------------------------------------------------------------------------------------------

const CONTRACT = 'contract(/openapi|/dashboard)?';
const CORE = 'core/(?!testing/)[\\w./-]+';
const TESTING = (...packages) => `(${packages.join('|')})/testing/[\\w./-]+`;

/** Package folder → the `@doppel/...` specifiers (regex bodies, matched whole) its sources may use. */
const MAY_IMPORT = {
  contract: [],
  sdk: [CONTRACT],
  dashboard: [CONTRACT],
  // The engine is a library of its own: it never knows who runs it.
  engine: [CONTRACT],
  core: [CONTRACT],
  // The API imports the engine's light entry only: an api process must not load the models.
  server: [CONTRACT, CORE, 'engine/media'],
  worker: [CONTRACT, CORE, 'engine(/media)?'],
  // The one place that knows both roles.
  launcher: [CORE, 'server', 'worker'],
  examples: ['sdk(/web)?'],
};

/** What test and bench code of a package may use beyond its sources' list. */
const TESTS_MAY_ALSO_IMPORT = {
  core: ['sdk', TESTING('core')],
  engine: ['engine/fixtures/[\\w.-]+'],
  server: ['sdk', TESTING('core')],
  worker: ['sdk', TESTING('core')],
  launcher: [CONTRACT, 'engine(/media)?', 'engine/fixtures/[\\w.-]+', 'sdk', TESTING('core', 'server')],
  examples: [TESTING('core', 'server', 'launcher')],
};

const packageOf = (file) => (MAY_IMPORT[file.split('/')[0]] ? file.split('/')[0] : undefined);
const isTestCode = (file) => /^[^/]+\/(test|bench)\//.test(file);

const importBoundaries = {
  meta: { type: 'problem', schema: [], messages: { refused: '{{reason}}' } },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const from = packageOf(file);
    if (!from) return {};
    const allowed = [...MAY_IMPORT[from], ...(isTestCode(file) ? (TESTS_MAY_ALSO_IMPORT[from] ?? []) : [])];
    const allowedRegex = new RegExp(`^@doppel/(${allowed.join('|') || '(?!)'})$`);
    function check(source) {
      if (typeof source?.value !== 'string') return;
      const specifier = source.value;
      let reason;
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        if (target.split('/')[0] !== from) reason = 'Import another workspace package by its name, never by a relative path into its folder.';
      } else if (specifier.startsWith('@doppel/') && specifier.split('/')[1] !== from && !allowedRegex.test(specifier)) {
        reason = `${from}${isTestCode(file) ? ' tests' : ''} may not import ${specifier} (allowed: ${allowed.map((a) => `@doppel/${a}`).join(', ') || 'nothing of ours'}).`;
      }
      if (reason) context.report({ node: source, messageId: 'refused', data: { reason } });
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.doppel/**', 'docs/**', 'server/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { plugins: { doppel: { rules: { 'import-boundaries': importBoundaries } } }, rules: { 'doppel/import-boundaries': 'error' } },
);
