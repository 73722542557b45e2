#!/usr/bin/env bash
# ctest install_tree: `cmake --install` into a throw-away DESTDIR with prefix /usr, then checks
# that every expected file is there, that no binary has an RPATH (into the build tree or
# anywhere), that each installed program answers --version, and that the installed app starts
# offscreen with a throw-away home, opens a document and streams one answer from the embedded
# provider (the hidden --smoke-test option, app/drivers/smoketest.h).
# Usage: installtree.sh CMAKE BUILD_DIR APP_ID VERSION DOCUMENT
set -euo pipefail
cmake=$1 build=$2 appid=$3 version=$4 document=$5
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

DESTDIR="$tmp/root" "$cmake" --install "$build" --prefix /usr >"$tmp/install.log" \
  || { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
usr="$tmp/root/usr"

expected=(
  bin/headstart bin/headstart-cli bin/headstart-localprovider
  share/headstart/translations/headstart_zh_CN.qm share/headstart/translations/headstart_en.qm
  share/headstart/translations/qtbase_zh_CN.qm
  "share/applications/$appid.desktop" "share/metainfo/$appid.metainfo.xml"
  "share/icons/hicolor/scalable/apps/$appid.svg"
  share/man/man1/headstart.1.gz share/man/man1/headstart-cli.1.gz share/man/man1/headstart-localprovider.1.gz
  share/doc/headstart/copyright share/doc/headstart/changelog.gz
  share/doc/headstart/user-guide.md share/doc/headstart/screenshots/main-en.png
)
for size in 16 22 24 32 48 64 128 256; do
  expected+=("share/icons/hicolor/${size}x${size}/apps/$appid.png")
done
for f in "${expected[@]}"; do
  [ -s "$usr/$f" ] || fail "missing $f"
done
for size in 16 22 24 32 48 64 128 256; do
  png="$usr/share/icons/hicolor/${size}x${size}/apps/$appid.png"
  # The PNG header's width and height (big-endian, bytes 16-23) must be the folder's size.
  dims="$(od -An -tu1 -j16 -N8 "$png" 2>/dev/null | tr -s ' ')"
  [ "$dims" = " 0 0 $((size >> 8)) $((size & 255)) 0 0 $((size >> 8)) $((size & 255))" ] \
    || fail "$png is not ${size}x${size} (header:$dims)"
done
unexpected="$(cd "$tmp/root" && find . -type f | grep -v '^\./usr/' || true)"
[ -z "$unexpected" ] || fail "files outside /usr: $unexpected"

for program in headstart headstart-cli headstart-localprovider; do
  if readelf -d "$usr/bin/$program" | grep -Eq 'RPATH|RUNPATH'; then
    fail "$program has an RPATH: $(readelf -d "$usr/bin/$program" | grep -E 'RPATH|RUNPATH')"
  fi
done

# A home of its own: the installed app must not read or write the user's settings.
home="$tmp/home"
mkdir -p "$home/config" "$home/data" "$home/state" "$home/cache" "$home/runtime"
chmod 700 "$home/runtime"
export HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
  XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" XDG_RUNTIME_DIR="$home/runtime" \
  QT_QPA_PLATFORM=offscreen
# Nor the machine's system bus: its battery or metered network must not pause the app's prefetch.
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$home/runtime/no-system-bus"

for program in headstart headstart-cli headstart-localprovider; do
  out="$("$usr/bin/$program" --version 2>&1)" || fail "$program --version exited $?: $out"
  case "$out" in
    *"$version"*) echo "$program --version: $out" ;;
    *) fail "$program --version does not say $version: $out" ;;
  esac
done

cp "$document" "$tmp/smoke.md"
status=0
out="$(timeout 120 "$usr/bin/headstart" --latency-profile instant --smoke-test "$tmp/smoke.md" 2>"$tmp/smoke.err")" \
  || status=$?
echo "headstart --smoke-test (exit $status):"
echo "$out"
if [ "$status" -ne 0 ] || ! grep -qx 'smoke: ok' <<<"$out" || [ "$(grep -c . <<<"$out")" -lt 2 ]; then
  cat "$tmp/smoke.err"
  fail "the installed app's smoke run"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "install tree: ${#expected[@]} files, --version and the smoke run all good"
