import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------
// Import boundaries between the workspace packages (docs/architecture.md, "Who imports whom").
// contract is the bottom layer and imports nothing of ours; the SDK imports only the contract;
// the engine (worker/src/<engine folder>) imports nothing of server, nor of worker outside the
// engine. Server and worker are not to import each other; until the job handlers move from
// server/src/jobs into worker/, the server may import the worker's public entry (`@doppel/worker`),
// never a file inside it, and the worker never imports the server.
// ---------------------------------------------------------------------------------------------

const PACKAGES = ['contract', 'sdk', 'server', 'worker', 'examples'];
const ENGINE_FOLDERS = ['faces', 'swap', 'animation', 'video', 'scan', 'tf', 'pool', 'thumbnails'];
const either = (names) => names.join('|');

/**
 * The import specifiers a package may not use: another package by name unless it is in
 * `mayImport`; a file inside another package (its public entry only; the contract's `/openapi`
 * entry included); a relative path into another package's folder, unless under one of `mayReach`.
 */
function boundary(name, { mayImport = [], mayReach = [], reason }) {
  const others = PACKAGES.filter((other) => other !== name);
  const forbidden = others.filter((other) => !mayImport.includes(other));
  const entryOnly = mayImport.filter((other) => other !== 'contract');
  const reachable = mayReach.length > 0 ? `(?!${either(mayReach)})` : '';
  return [
    ...(forbidden.length > 0 ? [{ regex: `^@doppel/(${either(forbidden)})(/|$)`, message: `${reason}` }] : []),
    ...(entryOnly.length > 0
      ? [{ regex: `^@doppel/(${either(entryOnly)})/`, message: 'Import the package by its public entry, not a file inside it.' }]
      : []),
    {
      regex: `^(\\.\\./)+${reachable}(${either(others)})/`,
      message: 'Import another workspace package by its name, never by a relative path into its folder.',
    },
  ];
}

const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const engineFiles = ENGINE_FOLDERS.map((folder) => `worker/src/${folder}/**`);
const worker = { mayImport: ['contract'], reason: 'The worker never imports the server, the SDK or the examples.' };
const server = {
  mayImport: ['contract', 'worker'],
  reason: 'The server imports the contract and, until the job handlers move to worker/, the public entry of the worker.',
};
// Tests check deliveries with the SDK's verifier, as a receiver would; the engine tests that still
// run through server/src/jobs share the worker's clip fixtures, and the resource-bound tests its
// hostile videos (they move to worker/ with the jobs).
const serverTests = { ...server, mayImport: [...server.mayImport, 'sdk'], mayReach: ['worker/test/animation/', 'worker/test/video/'] };
const examples = { mayImport: ['sdk'], reason: 'The examples use the published SDK only.' };

const importBoundaries = [
  restrict(['contract/**'], boundary('contract', { reason: 'The contract imports nothing of ours.' })),
  restrict(['sdk/**'], boundary('sdk', { mayImport: ['contract'], reason: 'The SDK imports only the contract.' })),
  restrict(['worker/**'], boundary('worker', worker), engineFiles),
  restrict(engineFiles, [
    ...boundary('worker', worker),
    {
      regex: `^\\.\\./(?!(${either(ENGINE_FOLDERS)})/)`,
      message: 'The engine imports only the engine and the contract, not the rest of the worker.',
    },
  ]),
  restrict(['server/src/**'], boundary('server', server)),
  restrict(['server/test/**'], boundary('server', serverTests)),
  restrict(['examples/**'], boundary('examples', examples), ['examples/test/**']),
  // The examples' tests start a real server with the server's own test support.
  restrict(['examples/test/**'], boundary('examples', { ...examples, mayReach: ['server/test/support/'] })),
];

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
  ...importBoundaries,
);
