import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', web: 'src/web.ts' },
  format: ['esm', 'cjs'],
  dts: {
    // Inline the contract's types too. Resolved through node_modules, the declaration bundler
    // would keep `@doppel/contract` as an import, which the published package cannot satisfy.
    compilerOptions: { paths: { '@doppel/contract': ['../contract/src/index.ts'] } },
  },
  clean: true,
  target: 'node20',
  platform: 'node',
  // The contract is a private workspace package: inline it so the published SDK depends only on
  // @ts-rest/core and zod, which stay external so users share one copy with their own code.
  noExternal: ['@doppel/contract'],
  external: ['@ts-rest/core', 'zod'],
  // Edge runtimes with Node compatibility only know the prefixed specifier.
  removeNodeProtocol: false,
});
