#!/bin/sh
# Sanitizer check: build dpmanifold with AddressSanitizer and
# UndefinedBehaviorSanitizer into a temporary library and run test files
# under it, with libasan preloaded into R (R itself is not instrumented).
# Fails on any sanitizer report ("runtime error:" from UBSan,
# "ERROR: AddressSanitizer" from ASan) and on any test failure.
#
#   sh tools/sanitize.sh              the files in SANITIZE_FILES below
#   sh tools/sanitize.sh all          the whole suite
#   sh tools/sanitize.sh FILE ...     given test files (tests/testthat/...)
#
# SANITIZE_LIB=<dir>: build into <dir> and keep it (reused when it already
# holds an instrumented dpmanifold: for iterating on tests only).
#
# The compiler flags go through a temporary Makevars passed as
# R_MAKEVARS_USER; the user's own ~/.R is never read or written. The
# source is copied without object files, so nothing of a normal build is
# reused. Prints one line "sanitizers: OK ..." or "sanitizers: FAILED ...";
# exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)

# A representative subset that runs in a few minutes under ASan: every
# manifold's geometry and laws, the SPD eigensolver, Frechet means,
# regression, the samplers, the private releases and the hostile inputs.
SANITIZE_FILES="test-manifold-errors.R test-hostile-input.R test-manifold-laws.R test-manifold-values.R
test-spd-eigen.R test-frechet-mean.R test-regression.R test-sensitivity.R test-samplers.R
test-dp-frechet-mean.R test-dp-regression.R"

if [ "$#" -gt 0 ] && [ "$1" = "all" ]; then
  files=$(cd tests/testthat && ls test-*.R)
elif [ "$#" -gt 0 ]; then
  files=""
  for f in "$@"; do files="$files $(basename "$f")"; done
else
  files=$SANITIZE_FILES
fi

asan=$(gcc -print-file-name=libasan.so)
if [ ! -e "$asan" ] || [ ! -e "$(gcc -print-file-name=libubsan.so)" ]; then
  # Debian 12 ships them with gcc-12 (libasan8, libubsan1); install if missing
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends libasan8 libubsan1 >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends libasan8 libubsan1 >/dev/null; }
  fi
  asan=$(gcc -print-file-name=libasan.so)
  if [ ! -e "$asan" ]; then echo "sanitizers: FAILED (libasan not found)"; exit 1; fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=${SANITIZE_LIB:-$tmp/lib}
mkdir -p "$lib" "$tmp/pkg"
# sources only (no src/*.o or *.so of an earlier normal build)
tar -cf - --exclude='*.o' --exclude='*.so' DESCRIPTION NAMESPACE R src inst data man tests |
  (cd "$tmp/pkg" && tar -xf -)

flags="-g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cat >"$tmp/Makevars" <<EOF
CXXFLAGS = $flags
CXX11FLAGS = $flags
CXX14FLAGS = $flags
CXX17FLAGS = $flags
LDFLAGS = -fsanitize=address,undefined
EOF

start=$(date +%s)
if [ -n "${SANITIZE_LIB:-}" ] && [ -d "$lib/dpmanifold" ]; then
  echo "reusing the instrumented build in $lib"
elif ! R_MAKEVARS_USER="$tmp/Makevars" MAKEFLAGS="${MAKEFLAGS:--j1}" \
     R CMD INSTALL --no-docs --no-test-load --library="$lib" "$tmp/pkg" >"$tmp/install.log" 2>&1; then
  tail -n 30 "$tmp/install.log"
  echo "sanitizers: FAILED (the instrumented build did not install)"
  exit 1
fi
built=$(date +%s)

# Run the chosen files against the instrumented library. testthat's own
# summary decides test failures; the sanitizers abort the process
# (halt_on_error) and are found in the output.
cat >"$tmp/run.R" <<'EOF'
args <- commandArgs(TRUE)
suppressPackageStartupMessages(library(testthat))
Sys.setenv(NOT_CRAN = "true")
passed <- 0
failed <- 0
for (f in args[-1]) {
  res <- as.data.frame(testthat::test_file(file.path(args[1], f), package = "dpmanifold",
                                           load_package = "installed", reporter = "summary",
                                           stop_on_failure = FALSE))
  passed <- passed + sum(res$passed)
  failed <- failed + sum(res$failed) + sum(res$error)
}
cat(sprintf("sanitized tests: %d expectations passed, %d failed\n", passed, failed))
quit(status = if (failed > 0 || passed == 0) 1 else 0)
EOF
# shellcheck disable=SC2086
LD_PRELOAD="$asan" ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" R_LIBS="$lib" \
  Rscript "$tmp/run.R" "$root/tests/testthat" $files >"$tmp/tests.log" 2>&1
status=$?
end=$(date +%s)

reports=$(grep -c -E "runtime error:|ERROR: AddressSanitizer" "$tmp/tests.log")
if [ "$status" -ne 0 ] || [ "$reports" -gt 0 ]; then
  grep -n -A 30 -E "runtime error:|ERROR: AddressSanitizer" "$tmp/tests.log" | head -n 80
  tail -n 30 "$tmp/tests.log"
  echo "sanitizers: FAILED ($reports sanitizer report(s), test status $status; build $((built - start)) s, tests $((end - built)) s)"
  exit 1
fi
counts=$(grep "^sanitized tests:" "$tmp/tests.log" | sed 's/^sanitized tests: //')
echo "sanitizers: OK (ASan + UBSan, $(echo $files | wc -w) test files, $counts; build $((built - start)) s, tests $((end - built)) s)"
