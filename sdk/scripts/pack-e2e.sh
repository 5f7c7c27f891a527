#!/usr/bin/env bash
# Packs @doppel/sdk as it would be published, installs the tarball into an empty project and, from
# there, creates a swap on a running service and waits for it: once through `import`, once
# through `require`. pack-check.sh checks the package without a service; this is the end-to-end
# half of the acceptance.
#
#   DOPPEL_BASE_URL=http://localhost:8080 DOPPEL_API_KEY=dpl_... \
#   SOURCE_URL=https://.../face.jpg TARGET_URL=https://.../photo.jpg \
#   bash sdk/scripts/pack-e2e.sh
#
# Each run creates two image swaps, so the key's account needs credits for two.
set -euo pipefail

for name in DOPPEL_BASE_URL DOPPEL_API_KEY SOURCE_URL TARGET_URL; do
  if [[ -z "${!name:-}" ]]; then
    echo "pack-e2e: $name is not set" >&2
    exit 2
  fi
done

source "$(dirname "${BASH_SOURCE[0]}")/packed.sh"

install_consumer

# Polls every second instead of the SDK's 5 s default, to keep the run short; the service's own
# long wait (`wait: true`) is left to swaps.create and is not used here.
cat >e2e.mjs <<'JS'
import { Doppel } from '@doppel/sdk';
const doppel = new Doppel();
const before = await doppel.me();
const swap = await doppel.swaps.createAndWait(
  { type: 'image', source_url: process.env.SOURCE_URL, target_url: process.env.TARGET_URL, metadata: { via: 'pack-e2e esm' } },
  { intervalMs: 1000, timeoutMs: 300_000, onProgress: (s) => console.log(`esm  ${s.id} ${s.status} ${s.progress}%`) },
);
if (swap.status !== 'done') throw new Error(`swap ${swap.id} ended ${swap.status}: ${swap.error}`);
const result = await fetch(swap.result_url);
if (!result.ok) throw new Error(`result ${swap.result_url} answered ${result.status}`);
const listed = await doppel.swaps.list({ limit: 5 });
if (!listed.data.some((s) => s.id === swap.id)) throw new Error('the new swap is not listed');
console.log(`esm ok: ${swap.id} done, ${before.credits.total} credits before, result ${swap.result_url} (${result.headers.get('content-type')})`);
JS

cat >e2e.cjs <<'JS'
const { Doppel, NotFoundError } = require('@doppel/sdk');
(async () => {
  const doppel = new Doppel({ apiKey: process.env.DOPPEL_API_KEY, baseUrl: `${process.env.DOPPEL_BASE_URL}/api/v1` });
  const created = await doppel.swaps.create(
    { type: 'image', source_url: process.env.SOURCE_URL, target_url: process.env.TARGET_URL, metadata: { via: 'pack-e2e cjs' } },
    { idempotencyKey: `pack-e2e-${Date.now()}` },
  );
  const swap = await doppel.swaps.waitFor(created.id, {
    intervalMs: 1000,
    timeoutMs: 300_000,
    onProgress: (s) => console.log(`cjs  ${s.id} ${s.status} ${s.progress}%`),
  });
  if (swap.status !== 'done') throw new Error(`swap ${swap.id} ended ${swap.status}: ${swap.error}`);
  const missing = await doppel.swaps.retrieve('swp_doesnotexist').catch((error) => error);
  if (!(missing instanceof NotFoundError) || missing.code !== 'not_found') throw new Error('not_found is not a NotFoundError');
  console.log(`cjs ok: ${swap.id} done, result ${swap.result_url}`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
JS

node e2e.mjs
node e2e.cjs
echo "pack-e2e passed in $((SECONDS - started)) s"
