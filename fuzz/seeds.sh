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
# Records large in one dimension (tags, comments, comment length, NAGs, variations, nesting,
# moves on one line), as in crates/arbiter/tests/linear.rs: the fuzzer starts from inputs
# where a step quadratic in that dimension would show.
plain() { { printf '\x00'; printf '%s\n' "$1"; } > "$out/$2"; }
repeat() { local i; for ((i = 0; i < $2; i++)); do printf '%s' "${1//@/$i}"; done; }
head='[Event "e"]
[GameType "20"]
'
plain "$head$(repeat '[T@ "v"]
' 2000)
1. 32-28 19-23 *" many-tags
plain "$head
1. 32-28 $(repeat '{c} ' 2000)19-23 *" many-comments
plain "$head
1. 32-28 {$(repeat c 20000)} 19-23 *" long-comment
plain "$head
1. 32-28 $(repeat '$1 ' 2000)19-23 *" many-nags
plain "$head
1. 32-28 $(repeat '(1. 33-29) ' 2000)19-23 *" many-variations
plain "$head
1. 32-28 $(repeat '(1. 33-29 ' 200)$(repeat ')' 200) 19-23 *" deep-variations
plain "[Event \"e\"]
[GameType \"20\"]
[FEN \"W:WK50:BK1\"]

$(for ((i = 1; i < 2000; i += 2)); do printf '%d. 50-45 1-6 %d. 45-50 6-1 ' $i $((i + 1)); done)*" long-line
echo "$(ls "$out" | wc -l) seeds in $out"
