#!/usr/bin/env bash
# Writes the seed corpus of the `pipeline` fuzz target from self-play games of every game of
# the registry (a game added to the registry is seeded without a change here): for each game
# and seed, the game itself and a record that starts from one of its middle positions (a FEN
# tag), each once with the first byte 0 (the tags name the game) and once forcing the game by
# its index in the registry.
# Usage: fuzz/seeds.sh [ARBITER [OUT]]  (defaults: target/debug/arbiter, fuzz/seeds/pipeline).
# The output folder is ignored by git: the seeds are regenerated, never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
arbiter=${1:-target/debug/arbiter}
out=${2:-fuzz/seeds/pipeline}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Writes $2 to "$out/$3-tags" (first byte 0) and "$out/$3-forced" (first byte $1).
seed() {
  { printf '\x00'; printf '%s\n' "$2"; } > "$out/$3-tags"
  { printf "\\x$(printf '%02x' "$1")"; printf '%s\n' "$2"; } > "$out/$3-forced"
}

index=1
for id in $("$arbiter" games | awk '/^[a-z]/ { print $1 }'); do
  for s in 1 2; do
    "$arbiter" selfplay --game "$id" --games 1 --seed "$s" --max-plies 40 -o "$tmp/g.pdn" 2>/dev/null
    seed "$index" "$(cat "$tmp/g.pdn")" "$id-$s"
    "$arbiter" convert "$tmp/g.pdn" --to json --positions -o "$tmp/g.json" >/dev/null 2>&1 || true
    fen=$(grep -o '"position":"[^"]*"' "$tmp/g.json" 2>/dev/null | sed -n '20p' | cut -d'"' -f4)
    if [ -n "$fen" ]; then
      seed "$index" "$(grep '^\[' "$tmp/g.pdn" | grep -v '^\[Result'; echo "[FEN \"$fen\"]"; echo; echo '*')" "$id-$s-fen"
    fi
  done
  index=$((index + 1))
done
echo "$(ls "$out" | wc -l) seeds in $out"
