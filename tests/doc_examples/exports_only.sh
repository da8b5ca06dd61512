#!/bin/sh
# Usage: exports_only.sh LIBRARY PREFIX: fails when the shared library defines a dynamic symbol
# whose name does not start with PREFIX (or defines none, or nm fails), listing those symbols.
set -eu
symbols=$(nm -D --defined-only "$1" | awk 'NF == 3 { print $3 }')
count=$(printf '%s\n' "$symbols" | grep -c "^$2" || true)
others=$(printf '%s\n' "$symbols" | grep -v "^$2" || true)
if [ "$count" -eq 0 ] || [ -n "$others" ]; then
  echo "$1: $count symbols start with $2; these do not:" >&2
  printf '%s\n' "$others" >&2
  exit 1
fi
echo "$1: $count symbols, each starting with $2"
