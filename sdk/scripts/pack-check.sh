#!/usr/bin/env bash
# Packs @doppel/sdk as it would be published, installs the tarball into an empty project (its
# dependencies come from the registry) and checks that ESM, CommonJS, the /web entry and the
# type declarations all work without the private @doppel/contract package.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/packed.sh"
tsc="$sdk_dir/../node_modules/.bin/tsc"

runtime_deps="$(tar -xOzf "$tarball" package/package.json |
  node -e 'const p = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(Object.keys({ ...p.dependencies, ...p.peerDependencies }).join(" "))')"
if [[ " $runtime_deps " == *" @doppel/contract "* ]]; then
  echo 'FAIL: the packed package depends on the private @doppel/contract' >&2
  exit 1
fi
if tar -xzf "$tarball" -C "$work" package/dist && grep -rq '@doppel/contract' "$work/package/dist"; then
  echo 'FAIL: dist imports @doppel/contract instead of bundling it' >&2
  exit 1
fi

# The /web entry is for runtimes without node:crypto, so nothing it loads may import it.
web_files=("$work"/package/dist/web.js "$work"/package/dist/web.cjs "$work"/package/dist/chunk-*.js)
if grep -lE '(from |require\()"node:crypto"' "${web_files[@]}"; then
  echo 'FAIL: the /web entry loads node:crypto' >&2
  exit 1
fi

install_consumer

cat >check.mjs <<'JS'
import { Doppel, generateTestSignatureHeader, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '@doppel/sdk';
import { verifyWebhookAsync } from '@doppel/sdk/web';
const body = JSON.stringify({ event: 'swap.completed', id: 'swp_1', type: 'image', status: 'done', credit_cost: 1,
  progress: 100, created_at: '2025-01-01T00:00:00.000Z', result_url: 'https://cdn.example.com/r.jpg', error: null,
  metadata: null, webhook_url: null });
const header = generateTestSignatureHeader({ payload: body, apiKey: 'dk_test' });
if (verifyWebhook(body, header, 'dk_test').id !== 'swp_1') throw new Error('verifyWebhook');
if ((await verifyWebhookAsync(body, header, 'dk_test')).event !== 'swap.completed') throw new Error('verifyWebhookAsync');
new Doppel({ apiKey: 'dk_test', baseUrl: 'https://api.example.com' });
console.log(`esm ok (${WEBHOOK_SIGNATURE_HEADER})`);
JS

cat >check.cjs <<'JS'
const { Doppel, generateTestSignatureHeader, verifyWebhook, RateLimitError, APIError } = require('@doppel/sdk');
const body = JSON.stringify({ event: 'swap.failed', id: 'swp_2', type: 'gif', status: 'failed', credit_cost: 0,
  progress: 10, created_at: '2025-01-01T00:00:00.000Z', result_url: null, error: 'no face', metadata: { a: 1 },
  webhook_url: 'https://hooks.example.com/x' });
const header = generateTestSignatureHeader({ payload: body, apiKey: 'dk_test' });
if (verifyWebhook(Buffer.from(body), header, 'dk_test').status !== 'failed') throw new Error('verifyWebhook');
if (!(Object.create(RateLimitError.prototype) instanceof APIError)) throw new Error('error classes');
new Doppel({ apiKey: 'dk_test', baseUrl: 'https://api.example.com/api/v1' });
console.log('cjs ok');
JS

cat >check.ts <<'TS'
import { Doppel, verifyWebhook, type PublicSwap, type WebhookPayload } from '@doppel/sdk';
import { verifyWebhookAsync } from '@doppel/sdk/web';
const client = new Doppel({ apiKey: 'k', baseUrl: 'https://api.example.com' });
export const created: Promise<PublicSwap> = client.swaps.create({ type: 'image', source_url: 'https://a/b', target_url: 'https://a/c' });
export const event: WebhookPayload = verifyWebhook('{}', 't=1,v1=00', 'k');
export const later: Promise<WebhookPayload> = verifyWebhookAsync('{}', 't=1,v1=00', 'k');
// @ts-expect-error: the status is typed from the contract
export const bad: PublicSwap['status'] = 'finished';
TS
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022",
  "lib": ["ES2022", "DOM"], "types": [], "strict": true, "noEmit": true, "skipLibCheck": false }, "files": ["check.ts"] }
JSON

node check.mjs
node check.cjs
"$tsc" -p tsconfig.json && echo 'types ok'
echo "pack-check passed in $((SECONDS - started)) s"
