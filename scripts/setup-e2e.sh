#!/usr/bin/env bash
# Installs what the editor end-to-end tests (test/e2e) need, and skips whatever is already there:
#   - Debian packages: Chromium (driven by playwright-core), Neovim 0.7, Emacs 28 with eglot, and the tools that
#     building code-server's native modules needs (compilers, pkg-config, Kerberos headers, ripgrep);
#   - code-server 4.100.3 (VS Code 1.100.3, the last release that runs on Node 20) under .cache/code-server.
# Safe to run again (0.2 s when everything is there); `npm test` runs it first. Needs root (or sudo) for apt-get, and the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${BFL_SKIP_E2E:-}" = "1" ]; then
  echo "setup-e2e: BFL_SKIP_E2E=1, editor tests skipped"
  exit 0
fi

CODE_SERVER_VERSION=4.100.3
# code-server's dependency @vscode/ripgrep downloads this ripgrep build from GitHub in its postinstall, unless the
# file is already in its cache folder; Debian's ripgrep is the same version (13.0.0), so it is packed into that name.
RIPGREP_PACKAGE_VERSION=1.15.11
RIPGREP_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
APT_PACKAGES=(
  build-essential python3 pkg-config libkrb5-dev ripgrep iproute2 util-linux
  chromium neovim emacs-nox elpa-eglot
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then missing+=("$pkg"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-e2e: installing ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup-e2e: Debian packages present"
fi

cs_dir=.cache/code-server
cs_package="$cs_dir/node_modules/code-server/package.json"
installed=""
if [ -f "$cs_package" ] && [ -x "$cs_dir/node_modules/.bin/code-server" ]; then
  installed=$(node -p "require('./$cs_package').version")
fi
if [ "$installed" = "$CODE_SERVER_VERSION" ]; then
  echo "setup-e2e: code-server $CODE_SERVER_VERSION present"
  exit 0
fi

echo "setup-e2e: installing code-server $CODE_SERVER_VERSION into $cs_dir (about a minute)"
tmp="$PWD/.cache/tmp"
rg_cache="$tmp/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION"
mkdir -p "$rg_cache" "$cs_dir"
tar czf "$rg_cache/$RIPGREP_ASSET" -C "$(dirname "$(command -v rg)")" rg
rm -rf "$cs_dir/node_modules" "$cs_dir/package-lock.json"
echo '{"private":true}' > "$cs_dir/package.json"
# npm_config_yes: node-pty's postinstall calls npx; npm_config_unsafe_perm: code-server's postinstall refuses to
# run as root without it; the scripts of code-server's dependencies build its native modules.
(
  cd "$cs_dir"
  TMPDIR="$tmp" npm_config_yes=true npm_config_unsafe_perm=true npm_config_dangerously_allow_all_scripts=true \
    npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
)
test -x "$cs_dir/node_modules/.bin/code-server"
echo "setup-e2e: code-server $(node -p "require('./$cs_package').version") installed"
