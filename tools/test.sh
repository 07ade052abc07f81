#!/bin/sh
# The full test suite: unit tests of the current source, then R CMD build and
# R CMD check --as-cran --no-manual of the tarball (no LaTeX is assumed), then (when DPMANIFOLD_SANITIZE=true,
# as in CI) the sanitizer check of tools/sanitize.sh. Ends with one line
# "N passed, M failed", where the check counts as one test that fails on any
# ERROR or WARNING, and so does the sanitizer step. Exits non-zero on any
# failure.
set -u
cd "$(dirname "$0")/.."
lib=$(mktemp -d)
out=$(mktemp -d)
if ! R CMD INSTALL --no-docs --library="$lib" . >"$out/install.log" 2>&1; then
  tail -n 40 "$out/install.log"; echo "0 passed, 1 failed"; exit 1
fi
R_LIBS="$lib" Rscript tools/run-tests.R "$out/counts.txt"
tests_status=$?
counts=$(cat "$out/counts.txt" 2>/dev/null || echo "0 1")
passed=${counts% *}
failed=${counts#* }
[ "$tests_status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))

check_ok=0
(cd "$out" && R CMD build "$OLDPWD" >build.log 2>&1) || { tail -n 30 "$out/build.log"; check_ok=1; }
tarball=$(ls "$out"/dpmanifold_*.tar.gz 2>/dev/null | head -n 1)
if [ "$check_ok" -eq 0 ] && [ -n "$tarball" ]; then
  (cd "$out" && _R_CHECK_FORCE_SUGGESTS_=false R_LIBS="$lib" R CMD check --as-cran --no-manual "$tarball" >check.log 2>&1)
  grep -E "^Status:|WARNING|ERROR|NOTE" "$out/check.log" | head -n 20
  # no ERROR or WARNING, and no NOTE but those that need the internet
  # (incoming feasibility: URL checks; future file timestamps: a time server)
  other_notes=$(awk '/^\* checking/ {last = $0} /NOTE$/ {print last}' "$out/check.log" | sort -u |
    grep -v -E "checking CRAN incoming feasibility|checking for future file timestamps")
  if ! grep -q "^Status: OK\|^Status: [0-9]* NOTE" "$out/check.log" || [ -n "$other_notes" ]; then
    [ -n "$other_notes" ] && echo "NOTEs that do not come from the missing internet: $other_notes"
    check_ok=1
    tail -n 60 "$out/check.log"
  fi
else
  check_ok=1
fi
if [ "$check_ok" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

if [ "${DPMANIFOLD_SANITIZE:-}" = "true" ]; then
  if sh tools/sanitize.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
