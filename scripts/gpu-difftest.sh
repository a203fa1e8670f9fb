#!/usr/bin/env bash
#===- gpu-difftest.sh - differential tests and fuzzing on the GPU machine -===#
#
# Usage (on the GPU machine, from the repository root, with the archive of
# scripts/static-bundle.sh at .farm/tools.tar.xz and, for Vulkan, the loader
# packages in .gl/ as docs/testing-generator.md says):
#   scripts/gpu-difftest.sh GPU_SECONDS CPU_SECONDS GPU_FIRST_SEED \
#                           CPU_FIRST_SEED [FUZZ_JOBS] [DIFFTEST_JOBS]
#
# Runs scripts/difftest.sh for GPU_SECONDS with the cpu, cuda and vulkan
# backends from GPU_FIRST_SEED on, then for CPU_SECONDS with the cpu backend
# (bsgpi, -O0, -O2) from CPU_FIRST_SEED on, while the frontend fuzzer runs
# with FUZZ_JOBS workers the whole time. Results, failing seeds and the
# fuzzer's log go to $OUT (the device tool's output folder).
# CPU_BACKENDS (default cpu) sets the backends of the CPU phase, e.g.
# cpu,cpu:4 to run every program on four CPU devices as well.
#
#===----------------------------------------------------------------------===#
G=$1 C=$2 GS=$3 CS=$4 FJ=${5:-4} J=${6:-12}
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/fb && tar xJf .farm/tools.tar.xz -C /tmp/fb
export PATH=/tmp/fb/bin:$PATH LD_LIBRARY_PATH=/tmp/fb/lib
nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; which ld c++ | tr '\n' ' '; echo
./scripts/difftest.sh --build /tmp/fb --seeds 1-2 --jobs 2 --backends cpu,cuda,vulkan --out /tmp/smoke || { cat /tmp/smoke/seed-*/*.err | head -40; exit 1; }
SA="--enable=array-barrier,get-expr,reduce-twice,par-scan"
T=$((G + C))
if [ "$FJ" -gt 0 ]; then
  (BSGP_BUILD_DIR=/tmp/fb ./scripts/fuzz.sh -f frontend -t $T -j $FJ -k -n 200 -w /tmp/fz > $OUT/fuzz.log 2>&1) &
fi
if [ "$G" -gt 0 ]; then
  timeout $G ./scripts/difftest.sh --build /tmp/fb --seeds $GS-$((GS + 100000)) --jobs $J --backends cpu,cuda,vulkan --timeout 120 --out /tmp/dtg --smith-args "$SA" > $OUT/gpu.log 2>&1
  cp /tmp/dtg/results.txt $OUT/results-gpu.txt
fi
if [ "$C" -gt 0 ]; then
  timeout $C ./scripts/difftest.sh --build /tmp/fb --seeds $CS-$((CS + 100000)) --jobs $J --backends "${CPU_BACKENDS:-cpu}" --timeout 120 --out /tmp/dtc --smith-args "$SA" > $OUT/cpu.log 2>&1
  cp /tmp/dtc/results.txt $OUT/results-cpu.txt
fi
wait
for d in dtg dtc; do
  [ -d /tmp/$d ] && (cd /tmp/$d && ls -d seed-* 2>/dev/null | head -50 | xargs -r tar czf $OUT/fails-$d.tgz 2>/dev/null)
done
ls /tmp/fz/frontend 2>/dev/null | grep -E '^(crash|timeout|oom|leak)-' | head
for f in gpu cpu; do [ -f $OUT/results-$f.txt ] && echo "$f: $(grep -c ^pass $OUT/results-$f.txt) pass $(grep -c ^fail $OUT/results-$f.txt) fail"; done
grep "^fail" $OUT/results-*.txt | head -30
tail -3 $OUT/fuzz.log 2>/dev/null
