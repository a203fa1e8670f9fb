#!/usr/bin/env bash
#===- fuzz.sh - seed and run the libFuzzer targets ------------------------===#
#
# Builds the seed corpus (the .bsgp programs of test/ and examples/, plus
# bsgp-smith programs when bsgp-smith is built) and runs
# bsgp-frontend-fuzzer and bsgp-mlirgen-fuzzer, one after the other, each
# for the given time or number of executions, then prints the executions
# of each and lists the inputs that found something.
#
#   scripts/fuzz.sh [-t seconds] [-r runs] [-j jobs] [-n smith-programs]
#                   [-f frontend|mlirgen|both] [-w workdir] [-k]
#
# -t and -r apply to each fuzzer (and with -j to each job); the default is
# 60 seconds, one job. A job stops at its first finding; -k (keep going)
# runs libFuzzer's fork mode with -j processes instead, which records each
# finding and goes on, so that a known bug the seeds hit at once does not
# end the run. The corpus grows in <workdir>/<fuzzer>/corpus
# (default build/fuzz), so a later run goes on where this one stopped.
# Findings are written there as crash-*, timeout-*, oom-* or leak-*;
# minimize one with
#   build/bin/bsgp-frontend-fuzzer -minimize_crash=1 -runs=10000 crash-...
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
TIME=60
RUNS=-1
JOBS=1
KEEP_GOING=0
SMITH_COUNT=200
WHICH=both
WORK=$BUILD/fuzz

while getopts "t:r:j:n:f:w:kh" opt; do
  case $opt in
  t) TIME=$OPTARG ;;
  r) RUNS=$OPTARG ;;
  j) JOBS=$OPTARG ;;
  n) SMITH_COUNT=$OPTARG ;;
  f) WHICH=$OPTARG ;;
  w) WORK=$OPTARG ;;
  k) KEEP_GOING=1 ;;
  *) sed -n '/^# Builds/,/^#===-/{/^#===-/d;s/^# \{0,1\}//;p}' "$0"; exit 2 ;;
  esac
done

mkdir -p "$WORK/seeds"
find "$ROOT/test" "$ROOT/examples" -name '*.bsgp' -not -path '*/Output/*' |
  while read -r f; do
    # Flatten the path into a unique name.
    cp "$f" "$WORK/seeds/$(echo "${f#"$ROOT"/}" | tr '/' '_')"
  done
SMITH=${BSGP_SMITH:-$BUILD/bin/bsgp-smith}
if [ -x "$SMITH" ]; then
  for ((i = 1; i <= SMITH_COUNT; i++)); do
    [ -f "$WORK/seeds/smith-$i.bsgp" ] ||
      "$SMITH" --seed="$i" -o "$WORK/seeds/smith-$i.bsgp"
  done
  echo "fuzz.sh: $SMITH_COUNT bsgp-smith programs among the seeds"
else
  echo "fuzz.sh: no bsgp-smith at $SMITH; seeding from test/ and examples/ only"
fi
echo "fuzz.sh: $(ls "$WORK/seeds" | wc -l) seed files"

TOTAL=0
run_fuzzer() {
  local name=$1 maxlen=$2
  local bin=$BUILD/bin/bsgp-$name-fuzzer dir=$WORK/$name
  if [ ! -x "$bin" ]; then
    echo "fuzz.sh: $bin is not built (ninja bsgp-$name-fuzzer)" >&2
    return 1
  fi
  mkdir -p "$dir/corpus" "$dir/logs"
  rm -f "$dir"/logs/*.log
  # libFuzzer writes new inputs into the first directory only; the seeds
  # stay untouched. With -jobs each job logs to fuzz-<n>.log in the
  # current directory and prints its executions at the end; in fork mode
  # the last status line counts the executions of all processes.
  local mode=(-jobs="$JOBS" -workers="$JOBS")
  if [ "$KEEP_GOING" = 1 ]; then
    mode=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  (cd "$dir/logs" &&
    "$bin" -max_total_time="$TIME" -runs="$RUNS" "${mode[@]}" \
      -max_len="$maxlen" -rss_limit_mb=2048 -timeout=30 \
      -print_final_stats=1 -artifact_prefix="$dir/" \
      "$dir/corpus" "$WORK/seeds" > "$dir/logs/main.log" 2>&1) || true
  local n
  if [ "$KEEP_GOING" = 1 ]; then
    n=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$dir/logs/main.log" | tail -1)
    n=${n:-0}
  else
    n=$(cat "$dir"/logs/*.log |
      sed -n 's/^stat::number_of_executed_units: *//p' |
      awk '{ s += $1 } END { print s + 0 }')
  fi
  TOTAL=$((TOTAL + n))
  echo "fuzz.sh: bsgp-$name-fuzzer ran $n executions"
  ls "$dir" | grep -E '^(crash|timeout|oom|leak|slow-unit)-' |
    sed "s|^|fuzz.sh: finding: $dir/|" || true
}

case $WHICH in
frontend) run_fuzzer frontend 1024 ;;
mlirgen) run_fuzzer mlirgen 4096 ;;
both) run_fuzzer frontend 1024; run_fuzzer mlirgen 4096 ;;
*) echo "fuzz.sh: -f takes frontend, mlirgen or both" >&2; exit 2 ;;
esac
echo "fuzz.sh: $TOTAL executions in total"
