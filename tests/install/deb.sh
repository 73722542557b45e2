#!/usr/bin/env bash
# ctest install_deb: builds the .deb into a throw-away folder (`cpack -G DEB`) and checks it:
# the control fields (dpkg-deb -I), that every path is under /usr and owned by root:root
# (dpkg-deb -c), and that lintian reports no error. Its full lintian output is printed.
# Usage: deb.sh CPACK BUILD_DIR VERSION
set -euo pipefail
cpack=$1 build=$2 version=$3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

(cd "$build" && "$cpack" -G DEB -B "$tmp" >"$tmp/cpack.log" 2>&1) \
  || { cat "$tmp/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb="$(ls "$tmp"/headstart_*.deb)"
echo "built $(basename "$deb")"
[ "$(basename "$deb")" = "headstart_${version}_$(dpkg --print-architecture).deb" ] || fail "unexpected name $deb"

info="$(dpkg-deb -f "$deb")"
echo "$info"
field() { sed -n "s/^$1: //p" <<<"$info"; }
[ "$(field Package)" = headstart ] || fail "Package is not headstart"
[ "$(field Version)" = "$version" ] || fail "Version is not $version"
[ "$(field Priority)" = optional ] || fail "Priority is not optional"
[ -n "$(field Section)" ] || fail "no Section"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Homepage)" ] || fail "no Homepage"
depends="$(field Depends)"
# Computed by dpkg-shlibdeps from the binaries, plus the SQL driver plugin it cannot see.
names="$(tr ',' '\n' <<<"$depends" | awk '{print $1}')"
for lib in libqt6widgets6 libqt6network6 libqt6core6 libqt6sql6 libqt6keychain1 libc6 libstdc++6 libqt6sql6-sqlite; do
  grep -qxF "$lib" <<<"$names" || fail "Depends lacks $lib: $depends"
done
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -gt 3 ] || fail "the description has no extended part"

contents="$(dpkg-deb -c "$deb")"
not_root="$(awk '$2 != "root/root"' <<<"$contents")"
[ -z "$not_root" ] || fail "not owned by root/root: $not_root"
# The paths once, then grep on a here-string: `awk | grep -q` under pipefail fails when grep
# stops at its match while awk still writes (SIGPIPE), and a long listing made that happen.
paths="$(awk '{print $6}' <<<"$contents")"
outside="$(grep -Ev '^\./(usr/.*)?$' <<<"$paths" || true)"
[ -z "$outside" ] || fail "paths outside /usr: $outside"
for f in ./usr/bin/headstart ./usr/share/applications/io.github.headstart.Headstart.desktop \
         ./usr/share/doc/headstart/copyright ./usr/share/doc/headstart/changelog.gz; do
  grep -qxF "$f" <<<"$paths" || fail "the package lacks $f"
done

lintian_status=0
lintian --display-level ">=pedantic" "$deb" >"$tmp/lintian.txt" 2>&1 || lintian_status=$?
echo "lintian (exit $lintian_status):"
cat "$tmp/lintian.txt"
if grep -q '^E:' "$tmp/lintian.txt"; then
  fail "lintian reports errors"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "deb: control fields, contents and lintian all good"
