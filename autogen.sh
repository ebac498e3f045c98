#!/bin/sh
# Regenerate configure and the Makefile templates from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf -fi
