import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { contract } from '../src/router';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../src/openapi/index';

/**
 * Writes docs/openapi.json from the contract. With --check it writes nothing and fails when the
 * committed file differs, so CI catches a contract change whose document was not regenerated.
 */
const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
const shown = 'docs/openapi.json';

async function readCommitted(): Promise<string | null> {
  try {
    return await readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`Unknown argument ${unknown.join(' ')}. Usage: write-openapi [--check]`);
    return 2;
  }
  const expected = serializeOpenApiDocument(buildOpenApiDocument(contract));
  if (args.includes('--check')) {
    const committed = await readCommitted();
    if (committed === expected) {
      console.log(`${shown} is up to date.`);
      return 0;
    }
    const state = committed === null ? 'is missing' : 'is stale: it differs from what the contract generates';
    console.error(`${shown} ${state}. Run \`pnpm openapi\` and commit the result.`);
    return 1;
  }
  await writeFile(target, expected);
  console.log(`Wrote ${shown}.`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
