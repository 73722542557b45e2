#!/usr/bin/env bash
# ctest install_manpages: every option a program's --help lists (for headstart-cli, each
# command's --help too) is documented in its man page (packaging/man/), and every option the
# page documents is still one the program has. Fails when a new option lands without its page.
# Usage: manpages.sh BUILD_DIR MAN_DIR
set -euo pipefail
build=$1 man=$2
export QT_QPA_PLATFORM=offscreen
failures=0
options() { grep -oE -- '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]*//' | sort -u; }
page_options() { sed 's/\\-/-/g' "$man/$1.1" | options; }

check() { # PROGRAM HELP_TEXT
  local program=$1 help=$2 missing extra
  missing="$(comm -23 <(options <<<"$help") <(page_options "$program"))"
  extra="$(comm -13 <(options <<<"$help") <(page_options "$program"))"
  if [ -n "$missing" ]; then echo "FAIL: $program.1 lacks: $(tr '\n' ' ' <<<"$missing")"; failures=$((failures + 1)); fi
  if [ -n "$extra" ]; then echo "FAIL: $program.1 documents options $program does not have: $(tr '\n' ' ' <<<"$extra")"; failures=$((failures + 1)); fi
}

check headstart "$("$build/app/headstart" --help)"
check headstart-localprovider "$("$build/localprovider/headstart-localprovider" --help)"
cli_help="$("$build/cli/headstart-cli" --help)"
for command in chat replay bench tracegen; do
  cli_help+=$'\n'"$("$build/cli/headstart-cli" "$command" --help 2>/dev/null)"
done
check headstart-cli "$cli_help"

if [ "$failures" -ne 0 ]; then exit 1; fi
echo "man pages: every option documented"
