#!/usr/bin/env bash
# Recall against bytes for each code of the sharded corpus (sign codes "bits", RaBitQ 1/2/4 bits)
# at three sizes, in one run on a leased GPU machine (bench/gpu/route-sim.py does the replay):
#   1. the real all-MiniLM-L6-v2 q8 vectors cached by bench/real/embed-corpus.ts
#      (~/.cache/selfrag/real-corpus/vectors-q8.f32, 1,000 held-out questions queries-q8.f32),
#   2. synthetic vectors of the same count (route-sim's model), the gap between the two,
#   3. synthetic 1M and 21M (bits, rabitq1, rabitq2; rabitq4 at 21M, then at 1M, while time is left).
# Each step writes one JSON line a code to its own file under $OUT, most important first, and
# codes not started by DEADLINE_S seconds after the start are skipped (SIM_DEADLINE), so the run
# ends inside a lease. Real vectors travel as float16 (a 64 MiB limit on what is sent to the
# machine) and are widened to float32 there; float16 keeps 11 bits, below the q8 model's noise.
#   bash bench/gpu/codes-at-scale.sh <dir holding vectors-q8.f16 and queries-q8.f32>
# Small sizes on a CPU, to check the script end to end:
#   SIM_DEVICE=cpu REAL_N=5000 Q=50 MID_N=20000 BIG_N=30000 BIG_Q=50 OUT=/tmp/o PY=python3 bash bench/gpu/codes-at-scale.sh DIR
set -uo pipefail
DATA=${1:?directory holding vectors-q8.f16 and queries-q8.f32}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT to the folder for the results}
PY=${PY:-python3}
REAL_N=${REAL_N:-58624} Q=${Q:-1000} MID_N=${MID_N:-1000000} BIG_N=${BIG_N:-21000000} BIG_Q=${BIG_Q:-500}
DEADLINE_S=${DEADLINE_S:-420}
export PYTHONUNBUFFERED=1
export SIM_DEADLINE=$(( $(date +%s) + DEADLINE_S ))
mkdir -p "$OUT"
{
  echo "start $(date -u +%FT%TZ)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
  TMP=$(mktemp -d)
  "$PY" -c "import numpy as np, sys; np.fromfile(sys.argv[1], dtype=np.float16).astype(np.float32).tofile(sys.argv[2])" \
    "$DATA/vectors-q8.f16" "$TMP/vectors-q8.f32"
  echo "widened $(stat -c %s "$TMP/vectors-q8.f32") bytes of real vectors at ${SECONDS}s"

  # The deep end of the grid matters on real vectors (crowded: the writer's ladder reaches 96 lists, 800 rows).
  grid_small() { SIM_NTOP='[4,8,16,24,32,48]' SIM_NPROBE='[8,16,24,32,48,64,96]' SIM_RESCORE='[20,30,50,100,200,400,800]' "$@"; }
  echo "== real $REAL_N at ${SECONDS}s"
  grid_small env SIM_VECTORS="$TMP/vectors-q8.f32" SIM_QUERIES="$DATA/queries-q8.f32" \
    "$PY" "$HERE/route-sim.py" "$REAL_N" "$Q" bits,rabitq1,rabitq2,rabitq4 | tee "$OUT/real-58k.jsonl" || echo "!!! real-58k failed (rc $?)"
  echo "== synthetic $REAL_N at ${SECONDS}s"
  grid_small "$PY" "$HERE/route-sim.py" "$REAL_N" "$Q" bits,rabitq1,rabitq2,rabitq4 | tee "$OUT/synthetic-58k.jsonl" || echo "!!! synthetic-58k failed (rc $?)"
  echo "== synthetic $MID_N at ${SECONDS}s"
  SIM_NTOP='[8,16,24,32,48,64,96]' SIM_NPROBE='[16,24,32,48,64,96]' SIM_RESCORE='[20,30,50,100,200,400,800]' \
    "$PY" "$HERE/route-sim.py" "$MID_N" "$Q" bits,rabitq1,rabitq2 | tee "$OUT/synthetic-1m.jsonl" || echo "!!! synthetic-1m failed (rc $?)"
  echo "== synthetic $BIG_N at ${SECONDS}s"
  SIM_NTOP='[8,16,32,64]' SIM_NPROBE='[16,24,48,96]' SIM_RESCORE='[20,50,100,200,400,800]' \
    "$PY" "$HERE/route-sim.py" "$BIG_N" "$BIG_Q" bits,rabitq2,rabitq1,rabitq4 | tee "$OUT/synthetic-21m.jsonl" || echo "!!! synthetic-21m failed (rc $?)"
  echo "== synthetic $MID_N, rabitq4, at ${SECONDS}s"
  SIM_NTOP='[8,16,24,32,48,64,96]' SIM_NPROBE='[16,24,32,48,64,96]' SIM_RESCORE='[20,30,50,100,200,400,800]' \
    "$PY" "$HERE/route-sim.py" "$MID_N" "$Q" rabitq4 | tee -a "$OUT/synthetic-1m.jsonl" || echo "!!! synthetic-1m rabitq4 failed (rc $?)"
  echo "done at ${SECONDS}s"
} 2>&1 | tee "$OUT/log"
