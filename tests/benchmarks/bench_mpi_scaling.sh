#!/usr/bin/env bash
# Scaling of a search across processes (docs/ARCHITECTURE.md §4.6): points per second of one
# tandem-cli search with threads alone, against `mpirun -np 1, 2, 4` ranks (oversubscribed on a
# small machine), each run's whole-command wall time included, and the ratio of each to the
# baseline measured in the same run (one process, one thread). Every run's JSON must equal the
# baseline's apart from "elapsed_s" and "threads"; the script says so, or fails.
#
# Usage: tests/benchmarks/bench_mpi_scaling.sh [BUILD_DIR] [-- extra search flags]
#   default BUILD_DIR: build/ci; default search: the example project's space with GPT-3
#   (4,600 points, about 20 s on one thread here). Needs mpirun (openmpi-bin) and a tandem-cli
#   built with MPI.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build/ci}"
shift || true
[ "${1:-}" = "--" ] && shift
cli="$build/app/tandem-cli"
search=(search --project "$root/resources/examples/gpt3-quick-search.tandem" --quiet "$@")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)

now() { date +%s.%N; }
# run NAME COMMAND...: runs, prints points/s (exploration and whole command) and the ratio.
base_rate=""
run() {
    local name="$1"
    shift
    local start end
    start=$(now)
    "$@" --json "$work/$name.json" >/dev/null
    end=$(now)
    python3 - "$work/$name.json" "$work/baseline.json" "$name" "$start" "$end" "${base_rate:-0}" <<'PY'
import json, sys
path, base, name, start, end, base_rate = sys.argv[1:]
r = json.load(open(path))
wall = float(end) - float(start)
rate = r["evaluated"] / wall
explore = r["evaluated"] / r["elapsed_s"]
same = "baseline"
if name != "baseline":
    b = json.load(open(base))
    for k in ("elapsed_s", "threads"):
        r.pop(k, None); b.pop(k, None)
    if r != b:
        print(f"{name}: RESULTS DIFFER from the baseline"); sys.exit(1)
    same = "identical"
ratio = rate / float(base_rate) if float(base_rate) > 0 else 1.0
print(f"{name:28s} {r['evaluated']:8d} points  explore {explore:8.1f} points/s"
      f"  whole command {wall:7.2f} s = {rate:8.1f} points/s  ×{ratio:4.2f}  ({same})")
PY
    if [ "$name" = baseline ]; then
        base_rate=$(python3 -c "import json,sys; r=json.load(open('$work/baseline.json')); print(r['evaluated']/($end-$start))")
    fi
}

echo "machine: $(nproc) cores; $("$cli" --version)"
run baseline "$cli" "${search[@]}" --threads 1
run "threads 2" "$cli" "${search[@]}" --threads 2
run "mpirun -np 1, 1 thread" "${mpirun[@]}" -np 1 "$cli" "${search[@]}" --threads 1
run "mpirun -np 2, 1 thread" "${mpirun[@]}" -np 2 "$cli" "${search[@]}" --threads 1
run "mpirun -np 4, 1 thread" "${mpirun[@]}" -np 4 "$cli" "${search[@]}" --threads 1
run "mpirun -np 2, 2 threads" "${mpirun[@]}" -np 2 "$cli" "${search[@]}" --threads 2
