#!/bin/sh
# Install what dpmanifold needs, then the package itself.
# Debian's prebuilt r-cran-* packages are used when we are root on Debian
# (fast); otherwise packages are built from CRAN. Quick when all is present.
set -e
cd "$(dirname "$0")/.."
# (shapes, checked below, loads rgl, which warns twice on a machine without
# a display unless told to draw off screen)
export RGL_USE_NULL=TRUE

needed="Rcpp RcppEigen knitr rmarkdown shapes generics"
missing=$(Rscript -e 'p <- commandArgs(TRUE); cat(p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)])' $needed)

if [ -n "$missing" ] || ! command -v pandoc >/dev/null 2>&1 || ! command -v qpdf >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    debs="pandoc qpdf"
    for p in $missing; do debs="$debs r-cran-$(echo "$p" | tr 'A-Z' 'a-z')"; done
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends $debs >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $debs >/dev/null; }
  fi
  missing=$(Rscript -e 'p <- commandArgs(TRUE); cat(p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)])' $needed)
  if [ -n "$missing" ]; then
    Rscript -e 'install.packages(commandArgs(TRUE), repos = "https://cloud.r-project.org")' $missing
  fi
fi

# R.matlab (reads corpus-callosum .mat files) is optional: Debian does not
# package it, so try CRAN and carry on without it if that fails.
if ! Rscript -e 'quit(status = !requireNamespace("R.matlab", quietly = TRUE))' >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends r-cran-r.utils >/dev/null 2>&1 || true
  fi
  Rscript -e 'try(install.packages("R.matlab", repos = "https://cloud.r-project.org", quiet = TRUE))' >/dev/null 2>&1 || true
fi

# GeodRegr (the tests compare the hyperbolic geometry and fits with it) is
# optional too: the tests skip without it.
if ! Rscript -e 'quit(status = !requireNamespace("GeodRegr", quietly = TRUE))' >/dev/null 2>&1; then
  Rscript -e 'try(install.packages("GeodRegr", repos = "https://cloud.r-project.org", quiet = TRUE))' >/dev/null 2>&1 || true
fi

R CMD INSTALL --no-docs . >/tmp/dpmanifold-install.log 2>&1 ||
  { tail -n 40 /tmp/dpmanifold-install.log; exit 1; }
echo "dpmanifold installed"
