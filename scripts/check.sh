#!/usr/bin/env bash
# `make check`: format check, lint with zero warnings and type check, side by side. Each is mostly
# one Node thread (about 27 s, 22 s and 32 s of CPU on a 2-core machine), so side by side they can
# use both cores instead of one after the other. Each one's output is held back and printed whole,
# in this order, once all have ended; the exit status is non-zero when any of them failed.
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

names=(format:check lint typecheck)
pids=()
for name in "${names[@]}"; do
  pnpm run "$name" >"$out/$name.log" 2>&1 &
  pids+=($!)
done

failed=()
for i in "${!names[@]}"; do
  if ! wait "${pids[$i]}"; then failed+=("${names[$i]}"); fi
  cat "$out/${names[$i]}.log"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "make check: ${failed[*]} failed" >&2
  exit 1
fi
