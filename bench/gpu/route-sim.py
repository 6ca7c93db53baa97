# The sharded corpus's routing at sizes our writer cannot build on one core, replayed on a GPU.
# Runs on a machine with PyTorch and CUDA (not part of `npm run bench`: no such machine in CI):
#   python3 bench/gpu/route-sim.py 100000,1000000,21000000 [queries]
# For each size it draws embedding-like 384-d vectors from the model of bench/scale/vectors.ts
# (the same mean, low-rank directions, 2,000 topics and noise; torch's generator, so not the
# same rows), trains the lists as the embedding job would (spherical k-means on 32 passages a
# list, 128 passages a list, every passage filed in its nearest list: the `--centroids` path
# docs/large-corpora.md recommends at tens of millions), groups them under 2√lists tops (k-means over the
# lists' centroids, each list under its nearest top), and answers fresh questions exactly as
# src/library/sharded/reader.ts does: tops ranked by their centroids, the sub-centroids of the
# `ntop` nearest ranked by the asymmetric score of their 1-bit codes (sign of centroid minus
# the corpus mean, weighted by the question times each dimension's spread), the `nprobe` best
# lists' passages ranked the same way, the best `rescore` scored exactly (float here; int8 in
# the page), top 10 against exact search. Bytes are the format's sizes (format.ts):
# centroid block 16 + 68 a list, list block 4 + 56 a passage, row record 408 B (at 384-d; SIM_DIM
# changes it); SIM_NTOP, SIM_NPROBE and SIM_RESCORE (JSON lists) set the grid; words and texts
# are left out (they do not depend on the vectors' routing).
# Codes (the third argument, comma-separated): bits (sign codes ranked by the asymmetric score,
# format 5), pq (product quantisation, 8 dims a byte), rabitq1, rabitq2, rabitq4 (format 6: RaBitQ,
# src/vector/rabitq.ts: the residual from the mean turned by a random rotation, B bits a
# dimension with the grid scaled per vector, a float32 factor each; sub-centroids in SIM_SUB_BITS,
# default 4). Format 6 bytes: list entry B·DIM/8 + 4 + 8, sub-centroid entry SUB_BITS·DIM/8 + 4 + 20.
# SIM_VECTORS=<file.f32> (and SIM_QUERIES=<file.f32>) replays real vectors (row-major float32, as
# bench/real/embed-corpus.ts caches them) instead of drawing them; SIM_DEVICE=cpu runs small sizes
# without a GPU.
import json, math, os, sys, time
import torch

DIM = int(os.environ.get("SIM_DIM", 384))
TOPICS, RANK, ROW_RANK = 2000, 48, 16
MEAN, TOPIC_SPREAD, TOPIC_NOISE, ROW_SPREAD, ROW_NOISE = 0.45, 0.9, 0.35, 0.45, 0.3
LIST_SIZE, SAMPLE_PER_LIST, K = 128, 32, 10
CODE, LIST_ENTRY, SUB_ENTRY, ROW = DIM // 8, DIM // 8 + 8, DIM // 8 + 4 + 16, DIM + 4 + 20
dev = torch.device(os.environ.get("SIM_DEVICE", "cuda"))
SUB_BITS = int(os.environ.get("SIM_SUB_BITS", 4))


def model(seed):
    g = torch.Generator(device=dev).manual_seed(seed)
    unit = lambda *s: torch.nn.functional.normalize(torch.randn(*s, DIM, device=dev, generator=g), dim=-1)
    mean = unit(1)[0] * MEAN
    dirs = unit(RANK)
    lam = 1 / torch.sqrt(torch.arange(1, RANK + 1, device=dev, dtype=torch.float32))
    topics = (torch.randn(TOPICS, RANK, device=dev, generator=g) * lam * TOPIC_SPREAD) @ dirs
    topics += torch.randn(TOPICS, DIM, device=dev, generator=g) * TOPIC_NOISE / math.sqrt(DIM)

    def draw(n, gen):
        t = topics[torch.randint(0, TOPICS, (n,), device=dev, generator=gen)]
        v = mean + t + torch.randn(n, DIM, device=dev, generator=gen) * ROW_NOISE / math.sqrt(DIM)
        v += (torch.randn(n, ROW_RANK, device=dev, generator=gen) * lam[:ROW_RANK] * ROW_SPREAD) @ dirs[:ROW_RANK]
        return torch.nn.functional.normalize(v, dim=-1)
    return draw


def nearest(x, c, chunk=16384):
    """Index of the nearest (largest dot) row of c for each row of x, in half precision chunks."""
    ch = c.half()
    out = torch.empty(len(x), dtype=torch.int64, device=dev)
    for i in range(0, len(x), chunk):
        out[i:i + chunk] = (x[i:i + chunk].half() @ ch.T).argmax(1)
    return out


def kmeans(x, k, iters, gen):
    c = x[torch.randperm(len(x), device=dev, generator=gen)[:k]].float().clone()
    for _ in range(iters):
        a = nearest(x, c)
        s = torch.zeros(k, DIM, device=dev)
        for i in range(0, len(x), 1 << 20):
            s.index_add_(0, a[i:i + (1 << 20)], x[i:i + (1 << 20)].float())
        cnt = torch.bincount(a, minlength=k)
        c = torch.where(cnt[:, None] > 0, torch.nn.functional.normalize(s, dim=-1), c)
    return c


def pq_train(x, M, ks, iters, gen):
    """Product quantiser: for each of M sub-spaces a k-means (Euclidean) of ks centres."""
    d = DIM // M
    books = []
    for m in range(M):
        xs = x[:, m * d:(m + 1) * d].float()
        c = xs[torch.randperm(len(xs), device=dev, generator=gen)[:ks]].clone()
        for _ in range(iters):
            a = pq_assign(xs, c)
            s = torch.zeros(ks, d, device=dev).index_add_(0, a, xs)
            cnt = torch.bincount(a, minlength=ks)
            c = torch.where(cnt[:, None] > 0, s / cnt.clamp(min=1)[:, None], c)
        books.append(c)
    return torch.stack(books)  # M × ks × d


def pq_assign(xs, c, chunk=1 << 20):
    out = torch.empty(len(xs), dtype=torch.int64, device=dev)
    cc = (c * c).sum(1)
    for i in range(0, len(xs), chunk):
        out[i:i + chunk] = (cc - 2 * xs[i:i + chunk] @ c.T).argmin(1)
    return out


def pq_encode(x, books):
    M, ks, d = books.shape
    codes = torch.empty(len(x), M, dtype=torch.uint8, device=dev)
    for i in range(0, len(x), 1 << 20):
        xc = x[i:i + (1 << 20)].float()
        for m in range(M):
            codes[i:i + (1 << 20), m] = pq_assign(xc[:, m * d:(m + 1) * d], books[m]).to(torch.uint8)
    return codes


def rotation(gen):
    """A random orthogonal DIM × DIM matrix (QR of a Gaussian one, signs fixed)."""
    a = torch.randn(DIM, DIM, device=dev, generator=gen)
    qm, r = torch.linalg.qr(a)
    return qm * torch.sign(torch.diagonal(r))


def rabitq_encode(x, centre, P, bits, chunk=1 << 18):
    """B-bit RaBitQ codes (levels 0 .. 2^B - 1, uint8 a dimension) and factors of rows x, as rabitq.ts `encodeCode`."""
    n = len(x)
    U = torch.empty(n, DIM, dtype=torch.uint8, device=dev)
    F = torch.empty(n, device=dev)
    top, half = (1 << (bits - 1)) - 1, 1 << (bits - 1)
    for i in range(0, n, chunk):
        r = x[i:i + chunk].float() - centre
        norm2 = (r * r).sum(1)
        o = r @ P.T
        a = o.abs()
        if bits == 1:
            level = torch.zeros_like(a)
        else:
            m = a.max(1).values.clamp_min(1e-12)
            best, best_t = torch.full_like(m, -1.0), torch.zeros_like(m)
            for step in range(48):
                t = (top + 1) / m * (0.5 + 2 * step / 48)
                y = torch.clamp(torch.floor(t[:, None] * a), max=top) + 0.5
                cos = (y * a).sum(1) / y.norm(dim=1)
                better = cos > best
                best, best_t = torch.where(better, cos, best), torch.where(better, t, best_t)
            level = torch.clamp(torch.floor(best_t[:, None] * a), max=top)
        dot = ((level + 0.5) * a).sum(1)
        U[i:i + chunk] = torch.where(o > 0, half + level, half - 1 - level).to(torch.uint8)
        F[i:i + chunk] = torch.where(dot > 0, norm2 / dot, torch.zeros_like(dot))
    return U, F


def rabitq_score(U, F, qr, qsum, bits, cq):
    """Estimates of ⟨v, q⟩ from codes: cq + F (⟨u, P q⟩ − (2^B − 1)/2 Σ P q)."""
    return cq + F * (U.float() @ qr - ((1 << bits) - 1) / 2 * qsum)


def load_f32(path, limit=None):
    raw = torch.from_numpy(__import__("numpy").fromfile(path, dtype="float32"))
    rows = raw.view(-1, DIM)
    return rows[:limit] if limit else rows


def run(n, Q, grid, kind):
    t0 = time.time()
    if os.environ.get("SIM_VECTORS"):
        X = torch.nn.functional.normalize(load_f32(os.environ["SIM_VECTORS"], n).to(dev), dim=-1).half()
        n = len(X)
        q = torch.nn.functional.normalize(load_f32(os.environ["SIM_QUERIES"], Q).to(dev), dim=-1)
        Q = len(q)
    else:
        draw = model(1)
        gen = torch.Generator(device=dev).manual_seed(101)
        X = torch.empty(n, DIM, dtype=torch.float16, device=dev)
        for i in range(0, n, 1 << 20):
            X[i:i + (1 << 20)] = draw(min(1 << 20, n - i), gen).half()
        q = draw(Q, torch.Generator(device=dev).manual_seed(202))
    L = max(1, round(n / LIST_SIZE)); T = max(1, min(round(2 * math.sqrt(L)), L))
    kg = torch.Generator(device=dev).manual_seed(7)
    sample = X[torch.randperm(n, device=dev, generator=kg)[:min(n, SAMPLE_PER_LIST * L)]]
    C = kmeans(sample, L, 10, kg)
    assign = nearest(X, C)
    counts = torch.bincount(assign, minlength=L)
    tops = kmeans(C, T, 10, kg)
    owner = nearest(C, tops)
    centre = sample[:1 << 20].float().mean(0)
    spread = (sample[:1 << 20].float() - centre).abs().mean(0)
    order = torch.argsort(assign)
    start = torch.zeros(L + 1, dtype=torch.int64, device=dev); start[1:] = torch.cumsum(counts, 0)
    subsign = torch.where(C > centre, 1.0, -1.0)
    bits = int(kind[6:]) if kind.startswith("rabitq") else 1
    list_entry = bits * DIM // 8 + 4 + 8 if kind.startswith("rabitq") else LIST_ENTRY
    sub_entry = SUB_BITS * DIM // 8 + 4 + 4 + 16 if kind.startswith("rabitq") else SUB_ENTRY
    if kind.startswith("rabitq"):
        P = rotation(torch.Generator(device=dev).manual_seed(11))
        U, F = rabitq_encode(X, centre, P, bits)
        Us, Fs = rabitq_encode(C, centre, P, SUB_BITS)
    if kind == "pq":
        books = pq_train(sample - centre.half(), DIM // 8, 256, 10, kg)
        codes = pq_encode(X - centre.half(), books)
        subcodes = pq_encode((C - centre).half(), books)
        ar = torch.arange(DIM // 8, device=dev)
    best_s = torch.full((Q, K), -2.0, device=dev); best_i = torch.zeros(Q, K, dtype=torch.int64, device=dev)
    for i in range(0, n, 1 << 20):
        s = (q.half() @ X[i:i + (1 << 20)].T).float()
        ts, ti = s.topk(min(K, s.shape[1]), dim=1)
        best_s, j = torch.cat([best_s, ts], 1).topk(K, dim=1)
        best_i = torch.gather(torch.cat([best_i, ti + i], 1), 1, j)
    exact = best_i
    built = time.time() - t0
    subs_per_top = torch.bincount(owner, minlength=T)
    res = {}
    for i in range(Q):
        qq = q[i]; w = qq * spread
        if kind == "pq":
            table = torch.einsum("mkd,md->mk", books, qq.view(DIM // 8, 8))
        if kind.startswith("rabitq"):
            qr = P @ qq
            qsum, cq = qr.sum(), centre @ qq
        truth = set(exact[i].tolist())
        top_rank = torch.argsort(tops @ qq, descending=True)
        if kind.startswith("rabitq"):
            sub_score = rabitq_score(Us, Fs, qr, qsum, SUB_BITS, cq)
        else:
            sub_score = subsign @ w if kind == "bits" else table[ar, subcodes.long()].sum(1)
        for ntop in sorted({g[0] for g in grid}):
            chosen = top_rank[:min(ntop, T)]
            in_tops = torch.isin(owner, chosen)
            cand_lists = torch.nonzero(in_tops).flatten()
            ranked = cand_lists[torch.argsort(sub_score[cand_lists], descending=True)]
            block_bytes = int((16 + subs_per_top[chosen] * sub_entry).sum())
            for nprobe in sorted({g[1] for g in grid if g[0] == ntop}):
                probed = ranked[:nprobe]
                rows = torch.cat([order[start[c]:start[c + 1]] for c in probed.tolist()])
                v = X[rows].float()
                if kind.startswith("rabitq"):
                    code_score = rabitq_score(U[rows], F[rows], qr, qsum, bits, cq)
                else:
                    code_score = torch.where(v > centre, 1.0, -1.0) @ w if kind == "bits" else table[ar, codes[rows].long()].sum(1)
                by_code = rows[torch.argsort(code_score, descending=True)]
                list_bytes = int((4 + counts[probed] * list_entry).sum())
                for rescore in sorted({g[2] for g in grid if g[:2] == (ntop, nprobe)}):
                    best = by_code[:rescore]
                    top10 = best[torch.argsort(X[best].float() @ qq, descending=True)[:K]]
                    r = res.setdefault((ntop, nprobe, rescore), [0, 0])
                    r[0] += len(truth & set(top10.tolist()))
                    r[1] += block_bytes + list_bytes + min(rescore, len(best)) * ROW
    rows_out = [{"ntop": a, "nprobe": b, "rescore": c, "recall": round(h / (K * Q), 3), "vector_kB": round(by / Q / 1024)} for (a, b, c), (h, by) in sorted(res.items())]
    print(json.dumps({"codes": kind, "passages": n, "lists": L, "tops": T, "subs_per_top_mean": round(L / T, 1), "empty_lists": int((counts == 0).sum()),
                      "startup_kB": round((T * (DIM + 4) + T * 16) / 1024), "build_s": round(built), "sweep_s": round(time.time() - t0 - built),
                      "cheapest": {str(t): min((r for r in rows_out if r["recall"] >= t), key=lambda r: r["vector_kB"], default=None) for t in (0.9, 0.95, 0.97)},
                      "rows": rows_out}), flush=True)
    del X, sample, C, assign, order
    torch.cuda.empty_cache()


if __name__ == "__main__":
    sizes = [int(s) for s in sys.argv[1].split(",")]
    Q = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    ntops, nprobes, rescores = (json.loads(os.environ[k]) if k in os.environ else d for k, d in (("SIM_NTOP", [8, 16, 24, 32, 48, 64, 96, 128]), ("SIM_NPROBE", [16, 24, 32, 48, 64]), ("SIM_RESCORE", [20, 30, 50, 100, 200, 400])))
    grid = [(a, b, c) for a in ntops for b in nprobes for c in rescores]
    print(json.dumps({"device": torch.cuda.get_device_name(0) if dev.type == "cuda" else "cpu", "torch": torch.__version__}), flush=True)
    kinds = sys.argv[3].split(",") if len(sys.argv) > 3 else ["bits"]
    for n in sizes:
        for kind in kinds:
            run(n, Q, grid, kind)
