# Sourced by pack-check.sh and pack-e2e.sh: builds and packs @doppel/sdk as it would be
# published, into a temporary folder removed on exit. Sets sdk_dir, work, tarball and started.
sdk_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

(cd "$sdk_dir" && pnpm run --silent build >/dev/null && pnpm pack --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/doppel-sdk-*.tgz)"

# An empty project with the packed SDK installed, its dependencies from the registry.
install_consumer() {
  mkdir "$work/consumer"
  cd "$work/consumer"
  echo '{ "name": "consumer", "private": true }' >package.json
  npm install --silent --no-audit --no-fund "$tarball" >/dev/null
}
