# Markdown tables of recall against bytes for each code, from route-sim.py's JSON lines:
#   python3 bench/gpu/codes-table.py real-58k.jsonl [more.jsonl ...]
# For each file and code: the cheapest depth (by p50 vector bytes a question) reaching recall@10
# 0.90 / 0.95 / 0.97 counted strictly, the same within 60 requests a question, and the best
# recall within 300 and 500 kB; each cell gives ntop × nprobe × rescore, strict / near-ties
# recall, p50 kB and p50 requests (an upper bound, route-sim.py's header says why).
import json, sys


def cell(r):
    if r is None:
        return "—"
    return f"{r['ntop']} × {r['nprobe']} × {r['rescore']}: {r['recall']:.3f} / {r['near_ties']:.3f}, {r['kB_p50']} kB, {r['requests_p50']} req"


def best_within(rows, kb, reqs=None):
    ok = [r for r in rows if r["kB_p50"] <= kb and (reqs is None or r["requests_p50"] <= reqs)]
    return max(ok, key=lambda r: (r["recall"], -r["kB_p50"]), default=None)


def cheapest(rows, t, reqs=None):
    ok = [r for r in rows if r["recall"] >= t and (reqs is None or r["requests_p50"] <= reqs)]
    return min(ok, key=lambda r: (r["kB_p50"], -r["recall"]), default=None)


for path in sys.argv[1:]:
    runs = [json.loads(line) for line in open(path) if line.startswith("{")]
    runs = [r for r in runs if "rows" in r]
    if not runs:
        continue
    a = runs[0]
    print(f"\n{path}: {a['passages']:,} passages, {a['questions']} questions, {a['vectors']}; "
          f"{a['lists']:,} lists under {a['tops']} tops; pair cosine {a['stats']['pair_cos']}, nearest-neighbour cosine {a['stats']['nn_cos']}\n")
    print("| code | list entry B | ≥ 0.90 | ≥ 0.95 | ≥ 0.97 | ≥ 0.95 within 60 requests | best within 300 kB | best within 500 kB | best within 500 kB and 60 requests |")
    print("|---|---:|---|---|---|---|---|---|---|")
    for r in runs:
        rows = r["rows"]
        print(f"| {r['codes']} | {r['list_entry_B']} | {cell(cheapest(rows, 0.9))} | {cell(cheapest(rows, 0.95))} | {cell(cheapest(rows, 0.97))} | "
              f"{cell(cheapest(rows, 0.95, 60))} | {cell(best_within(rows, 300))} | {cell(best_within(rows, 500))} | {cell(best_within(rows, 500, 60))} |")
    print("\n(build s, encode s, sweep s: " + "; ".join(f"{r['codes']} {r['build_s']}, {r['encode_s']}, {r['sweep_s']}" for r in runs) + ")")
