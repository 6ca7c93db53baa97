# The sharded corpus's routing at sizes our writer cannot build on one core, replayed on a GPU.
# Runs on a machine with PyTorch and CUDA (not part of `npm run bench`: no such machine in CI):
#   python3 bench/gpu/route-sim.py 100000,1000000,21000000 [questions] [codes]
# For each size it draws embedding-like 384-d vectors from the model of bench/scale/vectors.ts
# (the same mean, low-rank directions, 2,000 topics and noise; torch's generator, so not the
# same rows), trains the lists as the embedding job would (spherical k-means on 32 passages a
# list, 128 passages a list, every passage filed in its nearest list: the `--centroids` path
# docs/large-corpora.md recommends at tens of millions), groups them under 2√lists tops (k-means over the
# lists' centroids, each list under its nearest top), and answers fresh questions exactly as
# src/library/sharded/reader.ts does: tops ranked by their centroids, the sub-centroids of the
# `ntop` nearest ranked by their codes' score, the `nprobe` best lists' passages ranked the same
# way, the best `rescore` scored exactly (float here; int8 in the page), top 10 against exact
# float search, counted strictly, with near-ties (within 0.01 of the 10th neighbour's cosine)
# beside it. The routing and the exact answers are built once a size and shared by the codes.
# Bytes a question are the format's sizes (format.ts): centroid block 16 + one entry a list,
# list block 4 + one entry a passage, row record 408 B (at 384-d; SIM_DIM changes it), mean and
# p50 over the questions; kB_gap_p50 adds the unwanted rows that the reader reads between wanted
# rows of a list (read-plan.ts, gap 4), and requests_p50 counts one request a top's block, one a
# list and one a run of rows (an upper bound: neighbouring lists and rows of neighbouring lists
# sharing a request are not modelled). SIM_NTOP, SIM_NPROBE and SIM_RESCORE (JSON lists) set the
# grid; words and texts are left out (they do not depend on the vectors' routing).
# Codes (the third argument, comma-separated): bits (sign codes ranked by the asymmetric score,
# sign of centroid minus the corpus mean weighted by the question times each dimension's spread;
# format 5), pq (product quantisation, 8 dims a byte), rabitq1, rabitq2, rabitq4 (format 6: RaBitQ,
# src/vector/rabitq.ts: the residual from the mean turned by a random rotation, B bits a
# dimension with the grid scaled per vector, a float32 factor each; sub-centroids in SIM_SUB_BITS,
# default 4). Format 6 bytes: list entry B·DIM/8 + 4 + 8, sub-centroid entry SUB_BITS·DIM/8 + 4 + 20.
# SIM_FIRST_DIMS=k (a multiple of 8; default off: the full DIM) builds the RaBitQ codes, the passages' and
# the sub-centroids' (both through rabitq_encode, one rotation, one projected question), over the top k
# principal directions of the sample's residuals from the mean instead of all DIM dimensions (rotation
# k × k; entries B·k/8 + 4 + 8 and SUB_BITS·k/8 + 4 + 20; startup adds the k × DIM float32 projection),
# since at the depths 0.95 needs the list entries are most of the bytes; rescoring stays exact on full rows.
# SIM_VECTORS=<file.f32> (and SIM_QUERIES=<file.f32>) replays real vectors (row-major float32, as
# bench/real/embed-corpus.ts caches them) instead of drawing them, the first `size` rows; each
# size also prints the vectors' crowding (mean cosine of random pairs, of a row's nearest
# neighbour). SIM_DEVICE=cpu runs without a GPU (58k real passages: ~1 minute a code; 1M: ~17 minutes
# for three codes), with OMP_NUM_THREADS=1 on a shared machine (its many small tensors otherwise spin in
# OpenMP and run several times slower).
import json, math, os, sys, time
import torch

DIM = int(os.environ.get("SIM_DIM", 384))
TOPICS, RANK, ROW_RANK = 2000, 48, 16
MEAN, TOPIC_SPREAD, TOPIC_NOISE, ROW_SPREAD, ROW_NOISE = 0.45, 0.9, 0.35, 0.45, 0.3
LIST_SIZE, SAMPLE_PER_LIST, K = 128, 32, 10
NEAR_TIE, GAP = 0.01, 4  # bench/real's near-tie margin; read-plan.ts DEFAULT_GAP
CODE, LIST_ENTRY, SUB_ENTRY, ROW = DIM // 8, DIM // 8 + 8, DIM // 8 + 4 + 16, DIM + 4 + 20
dev = torch.device(os.environ.get("SIM_DEVICE", "cuda"))
SUB_BITS = int(os.environ.get("SIM_SUB_BITS", 4))
# Vectors are kept in half precision on a GPU (21M × 384 in 16 GB) and in float32 on a CPU (no fast half matmul there).
VDT = torch.float16 if dev.type == "cuda" else torch.float32
# Below this many bytes, each code's and the exact scores of every question against every row are
# computed up front in two matrix products (the fast path on a CPU); above it, a question scores the rows it reads.
SCORE_BYTES = float(os.environ.get("SIM_SCORE_BYTES", 4e9))
# Routing redundancy (not in the format yet; measured to see whether it is worth a format): each
# passage also filed in a second list. SIM_SPILL=second: its second-nearest list; SIM_SPILL=soar:
# the list SOAR (Sun et al., NeurIPS 2023, ScaNN) picks, the one whose residual is least parallel
# to the first list's (distance plus SIM_SOAR_LAMBDA times the squared projection on the first
# residual), so a question the first list ranks badly finds it in the second. A passage read in
# two lists is ranked once; the lists' bytes count both entries.
SPILL = os.environ.get("SIM_SPILL", "")
SOAR_LAMBDA = float(os.environ.get("SIM_SOAR_LAMBDA", 1.0))
# A first pass over fewer dimensions (header): 0 = off, the codes over all DIM dimensions.
FIRST_DIMS = int(os.environ.get("SIM_FIRST_DIMS", 0) or 0)
if FIRST_DIMS and not (0 < FIRST_DIMS <= DIM and FIRST_DIMS % 8 == 0):
    raise SystemExit(f"SIM_FIRST_DIMS={FIRST_DIMS}: a multiple of 8 in 8 .. {DIM}")


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
    """Index of the nearest (largest dot) row of c for each row of x, in chunks, in VDT."""
    ch = c.to(VDT)
    out = torch.empty(len(x), dtype=torch.int64, device=dev)
    for i in range(0, len(x), chunk):
        out[i:i + chunk] = (x[i:i + chunk].to(VDT) @ ch.T).argmax(1)
    return out


def second_list(x, c, first, chunk=16384):
    """The second list each row is filed in (SIM_SPILL), never its first."""
    out = torch.empty(len(x), dtype=torch.int64, device=dev)
    cf = c.float()
    for i in range(0, len(x), chunk):
        xs = x[i:i + chunk].float(); f = first[i:i + chunk]
        dots = xs @ cf.T
        score = 2 - 2 * dots
        if SPILL == "soar":
            r = xs - cf[f]
            rr = (r * r).sum(1, keepdim=True).clamp_min(1e-12)
            proj = (r * xs).sum(1, keepdim=True) - r @ cf.T
            score = score + SOAR_LAMBDA * proj * proj / rr
        score.scatter_(1, f[:, None], float("inf"))
        out[i:i + chunk] = score.argmin(1)
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


def rotation(gen, d=DIM):
    """A random orthogonal d × d matrix (QR of a Gaussian one, signs fixed)."""
    a = torch.randn(d, d, device=dev, generator=gen)
    qm, r = torch.linalg.qr(a)
    return qm * torch.sign(torch.diagonal(r))


def rabitq_encode(x, centre, P, bits, chunk=1 << 18, W=None):
    """B-bit RaBitQ codes (levels 0 .. 2^B - 1, uint8 a dimension) and factors of rows x, as rabitq.ts `encodeCode`;
    with W (k × DIM, SIM_FIRST_DIMS) the residual is first projected on W's rows and coded in k dimensions."""
    n = len(x)
    U = torch.empty(n, P.shape[0], dtype=torch.uint8, device=dev)
    F = torch.empty(n, device=dev)
    top, half = (1 << (bits - 1)) - 1, 1 << (bits - 1)
    for i in range(0, n, chunk):
        r = x[i:i + chunk].float() - centre
        if W is not None:
            r = r @ W.T
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


def exact_top(X, q, chunk=1 << 19):
    """Exact top K of each question over all rows, in float32 (as the rescoring scores them)."""
    best_s = torch.full((len(q), K), -2.0, device=dev); best_i = torch.zeros(len(q), K, dtype=torch.int64, device=dev)
    for i in range(0, len(X), chunk):
        s = q @ X[i:i + chunk].float().T
        ts, ti = s.topk(min(K, s.shape[1]), dim=1)
        best_s, j = torch.cat([best_s, ts], 1).topk(K, dim=1)
        best_i = torch.gather(torch.cat([best_i, ti + i], 1), 1, j)
    return best_i, best_s


def vector_stats(X, gen, m=1000):
    """Mean cosine of random pairs and of a sampled row's nearest other row (the crowding that
    separates real embeddings from the drawn ones)."""
    pick = torch.randperm(len(X), device=dev, generator=gen)[:m]
    s = X[pick].float()
    pair = (s[: m // 2] * s[m // 2:2 * (m // 2)]).sum(1).mean()
    nn = torch.full((len(pick),), -2.0, device=dev)
    for i in range(0, len(X), 1 << 19):
        d = s @ X[i:i + (1 << 19)].float().T
        own = torch.nonzero((pick >= i) & (pick < i + d.shape[1])).flatten()
        d[own, pick[own] - i] = -2.0  # a row is not its own neighbour
        nn = torch.maximum(nn, d.max(1).values)
    return {"pair_cos": round(float(pair), 3), "nn_cos": round(float(nn.mean()), 3)}


def build(n, Q):
    """Vectors, exact answers and the routing (lists, tops), shared by every code at this size."""
    t0 = time.time()
    if os.environ.get("SIM_VECTORS"):
        X = torch.nn.functional.normalize(load_f32(os.environ["SIM_VECTORS"], n).to(dev), dim=-1).to(VDT)
        q = torch.nn.functional.normalize(load_f32(os.environ["SIM_QUERIES"], Q).to(dev), dim=-1)
        source = "real: " + os.path.basename(os.environ["SIM_VECTORS"])
    else:
        draw = model(1)
        gen = torch.Generator(device=dev).manual_seed(101)
        X = torch.empty(n, DIM, dtype=VDT, device=dev)
        for i in range(0, n, 1 << 20):
            X[i:i + (1 << 20)] = draw(min(1 << 20, n - i), gen).to(VDT)
        q = draw(Q, torch.Generator(device=dev).manual_seed(202))
        source = "synthetic (bench/scale/vectors.ts model)"
    n, Q = len(X), len(q)
    L = max(1, round(n / LIST_SIZE)); T = max(1, min(round(2 * math.sqrt(L)), L))
    kg = torch.Generator(device=dev).manual_seed(7)
    sample = X[torch.randperm(n, device=dev, generator=kg)[:min(n, SAMPLE_PER_LIST * L)]]
    C = kmeans(sample, L, 10, kg)
    assign = nearest(X, C)
    filed, lists_of = torch.arange(n, device=dev), assign
    if SPILL:
        if SPILL not in ("second", "soar"):
            raise SystemExit(f"SIM_SPILL={SPILL!r}: second or soar")
        filed = torch.cat([filed, filed]); lists_of = torch.cat([assign, second_list(X, C, assign)])
    counts = torch.bincount(lists_of, minlength=L)
    tops = kmeans(C, T, 10, kg)
    owner = nearest(C, tops)
    centre = sample[:1 << 20].float().mean(0)
    spread = (sample[:1 << 20].float() - centre).abs().mean(0)
    order = filed[torch.argsort(lists_of, stable=True)]
    start = torch.zeros(L + 1, dtype=torch.int64, device=dev); start[1:] = torch.cumsum(counts, 0)
    exact, exact_s = exact_top(X, q)
    st = dict(X=X, q=q, n=n, Q=Q, L=L, T=T, sample=sample, C=C, assign=assign, counts=counts, tops=tops, owner=owner,
              centre=centre, spread=spread, order=order, start=start, exact=exact, tenth=exact_s[:, K - 1].contiguous(),
              subs_per_top=torch.bincount(owner, minlength=T), source=source)
    st["stats"] = vector_stats(X, torch.Generator(device=dev).manual_seed(5))
    if dev.type == "cuda":
        torch.cuda.synchronize()
    st["build_s"] = round(time.time() - t0, 1)
    return st


def principal(st, k):
    """The top k principal directions (k × DIM) of the sample's residuals from the code's centre, and the share of
    the residuals' variance they hold."""
    r = st["sample"].float() - st["centre"]
    cov = r.T @ r / len(r)
    val, vec = torch.linalg.eigh(cov)  # ascending
    return vec[:, -k:].flip(1).T.contiguous(), float(val[-k:].sum() / val.sum())


def sweep(st, grid, kind):
    """Every question through the reader's three rounds at each depth of the grid, with this code."""
    t0 = time.time()
    X, q, n, Q, L, T = st["X"], st["q"], st["n"], st["Q"], st["L"], st["T"]
    C, counts, tops, owner, centre, spread = st["C"], st["counts"], st["tops"], st["owner"], st["centre"], st["spread"]
    order, start, exact, tenth, subs_per_top = st["order"], st["start"], st["exact"], st["tenth"], st["subs_per_top"]
    rabitq = kind.startswith("rabitq")
    bits = int(kind[6:]) if rabitq else 1
    if FIRST_DIMS and not rabitq:
        raise SystemExit(f"SIM_FIRST_DIMS applies to the RaBitQ codes only, not {kind!r}")
    W = None; cd = DIM
    if FIRST_DIMS:
        W, var_kept = principal(st, FIRST_DIMS); cd = FIRST_DIMS
    list_entry = bits * cd // 8 + 4 + 8 if rabitq else LIST_ENTRY
    sub_entry = SUB_BITS * cd // 8 + 4 + 4 + 16 if rabitq else SUB_ENTRY
    if rabitq:
        P = rotation(torch.Generator(device=dev).manual_seed(11), cd)
        U, F = rabitq_encode(X, centre, P, bits, W=W)
        Us, Fs = rabitq_encode(C, centre, P, SUB_BITS, W=W)
        PQ = P if W is None else P @ W  # what turns a question: project on W's rows (SIM_FIRST_DIMS), then rotate
        Us = Us.float()  # scored against every question: converted once
    elif kind == "bits":
        subsign = torch.where(C > centre, 1.0, -1.0)
    elif kind == "pq":
        kg = torch.Generator(device=dev).manual_seed(8)
        books = pq_train(st["sample"] - centre.to(VDT), DIM // 8, 256, 10, kg)
        codes = pq_encode(X - centre.to(VDT), books)
        subcodes = pq_encode((C - centre).to(VDT), books)
        ar = torch.arange(DIM // 8, device=dev)
    else:
        raise SystemExit(f"unknown code {kind!r} (bits, pq, rabitq1, rabitq2, rabitq4)")
    # Every question against every row at once where it fits (code scores, exact scores).
    pre = kind != "pq" and 2 * Q * n * 4 <= SCORE_BYTES
    if pre:
        S_code = torch.empty(Q, n, device=dev); S_exact = torch.empty(Q, n, device=dev)
        if rabitq:
            Qr = q @ PQ.T
            qs, qc = Qr.sum(1, keepdim=True), (q @ centre)[:, None]
        for j in range(0, n, 1 << 16):
            xs = X[j:j + (1 << 16)].float()
            S_exact[:, j:j + len(xs)] = q @ xs.T
            if rabitq:
                S_code[:, j:j + len(xs)] = qc + F[j:j + len(xs)][None, :] * (Qr @ U[j:j + len(xs)].float().T - ((1 << bits) - 1) / 2 * qs)
            else:
                S_code[:, j:j + len(xs)] = (q * spread) @ torch.where(xs > centre, 1.0, -1.0).T
    encoded = time.time()
    ntops = sorted({min(g[0], T) for g in grid})
    nprobes = sorted({g[1] for g in grid})
    rescores = sorted({g[2] for g in grid})
    nP, nR, maxP, maxR = len(nprobes), len(rescores), max(nprobes), max(rescores)
    probe_t = torch.tensor(nprobes, device=dev)
    rescore_t = torch.tensor(rescores, device=dev)
    shape = (Q, len(ntops), nP, nR)
    hits, near, kb, kb_gap, reqs = (torch.zeros(shape, device=dev) for _ in range(5))
    neg = torch.tensor(float("-inf"), device=dev)
    for i in range(Q):
        qq = q[i]; w = qq * spread
        if rabitq:
            qr = PQ @ qq
            qsum, cq = qr.sum(), centre @ qq
            sub_score = rabitq_score(Us, Fs, qr, qsum, SUB_BITS, cq)
        elif kind == "bits":
            sub_score = subsign @ w
        else:
            table = torch.einsum("mkd,md->mk", books, qq.view(DIM // 8, 8))
            sub_score = table[ar, subcodes.long()].sum(1)
        top_rank = torch.argsort(tops @ qq, descending=True)
        for ti, ntop in enumerate(ntops):
            chosen = top_rank[:ntop]
            cand = torch.nonzero(torch.isin(owner, chosen)).flatten()
            probed = cand[torch.argsort(sub_score[cand], descending=True)][:maxP]
            lens = counts[probed]
            # Rows of the maxP best lists, each tagged with its list's rank; a smaller nprobe keeps a prefix of lists.
            rank_of_row = torch.repeat_interleave(torch.arange(len(probed), device=dev), lens)
            pos = start[probed][rank_of_row] + torch.arange(len(rank_of_row), device=dev) - torch.repeat_interleave(torch.cumsum(lens, 0) - lens, lens)
            rows = order[pos]
            first_seen = None
            if SPILL:
                # A passage filed in two lists read is ranked once, at its first (best-ranked) list.
                uniq, inv = torch.unique(rows, return_inverse=True)
                at = torch.full((len(uniq),), len(rows), device=dev, dtype=torch.int64)
                at.scatter_reduce_(0, inv, torch.arange(len(rows), device=dev), reduce="amin")
                first_seen = at[inv] == torch.arange(len(rows), device=dev)
            if pre:
                code_score, exact_score = S_code[i][rows], S_exact[i][rows]
            else:
                if rabitq:
                    code_score = rabitq_score(U[rows], F[rows], qr, qsum, bits, cq)
                elif kind == "bits":
                    code_score = torch.where(X[rows].float() > centre, 1.0, -1.0) @ w
                else:
                    code_score = table[ar, codes[rows].long()].sum(1)
                exact_score = X[rows].float() @ qq
            # Round 3 for every (nprobe, rescore): the best `rescore` rows by code among the first `nprobe` lists.
            in_probe = rank_of_row[None, :] < probe_t[:, None]
            if first_seen is not None:
                in_probe = in_probe & first_seen[None, :]
            k = min(maxR, len(rows))
            cv, ci = torch.where(in_probe, code_score[None, :], neg).topk(k, dim=1)  # nP × k
            taken = (cv > neg)[:, None, :] & (torch.arange(k, device=dev)[None, None, :] < rescore_t[None, :, None])  # nP × nR × k
            ex = torch.where(taken, exact_score[ci][:, None, :], neg)
            tv, tj = ex.topk(min(K, k), dim=2)
            got = rows[torch.gather(ci[:, None, :].expand(-1, nR, -1), 2, tj)]
            real = tv > neg
            strict = torch.isin(got, exact[i]) & real
            hits[i, ti] = strict.sum(2)
            near[i, ti] = (strict | ((tv >= tenth[i] - NEAR_TIE) & real)).sum(2)
            # Bytes: the centroid blocks of the tops read, the lists read, the wanted rows.
            block_bytes = (16 + subs_per_top[chosen] * sub_entry).sum()
            list_cum = torch.cumsum(4 + lens * list_entry, 0)
            list_bytes = list_cum[(probe_t.clamp(max=len(probed)) - 1)]
            n_rows = taken.sum(2)
            kb[i, ti] = (block_bytes + list_bytes[:, None] + n_rows * ROW) / 1024
            # Range requests as the reader groups rows (read-plan.ts rowBlocks, gap 4): wanted rows of
            # one list at most GAP rows apart share a request, and the rows between are read too. Rows of
            # neighbouring lists joining is not modelled, nor lists sharing a request: an upper bound.
            key = torch.where(taken, pos[ci][:, None, :].float(), float("inf"))
            p, si = key.sort(dim=2)
            lid = torch.gather(rank_of_row[ci][:, None, :].expand(-1, nR, -1), 2, si)
            d = p[:, :, 1:] - p[:, :, :-1]
            join = (d <= GAP + 1) & (lid[:, :, 1:] == lid[:, :, :-1]) & torch.isfinite(d)
            between = torch.where(join, d - 1, 0.0).sum(2)
            kb_gap[i, ti] = kb[i, ti] + between * ROW / 1024
            reqs[i, ti] = min(ntop, T) + probe_t.clamp(max=len(probed))[:, None] + n_rows - join.sum(2)
    out = []
    for ti, a in enumerate(ntops):
        for pi, b in enumerate(nprobes):
            for ri, c in enumerate(rescores):
                out.append({"ntop": a, "nprobe": b, "rescore": c,
                            "recall": round(float(hits[:, ti, pi, ri].mean()) / K, 3),
                            "near_ties": round(float(near[:, ti, pi, ri].mean()) / K, 3),
                            "vector_kB": round(float(kb[:, ti, pi, ri].mean())),
                            "kB_p50": round(float(kb[:, ti, pi, ri].median())),
                            "kB_gap_p50": round(float(kb_gap[:, ti, pi, ri].median())),
                            "requests_p50": round(float(reqs[:, ti, pi, ri].median()))})
    cheapest = {}
    for t in (0.9, 0.95, 0.97):
        ok = [r for r in out if r["recall"] >= t]
        cheapest[str(t)] = min(ok, key=lambda r: r["kB_p50"], default=None)
        cheapest[f"{t} within 60 requests"] = min((r for r in ok if r["requests_p50"] <= 60), key=lambda r: r["kB_p50"], default=None)
    best = {}
    for cap in (200, 300, 500, 800):
        best[f"{cap} kB"] = max((r for r in out if r["kB_p50"] <= cap), key=lambda r: r["recall"], default=None)
    first = {"first_dims": FIRST_DIMS, "first_dims_variance": round(var_kept, 3)} if FIRST_DIMS else {}
    print(json.dumps({"codes": kind, "spill": SPILL or None, **first, "passages": n, "questions": Q, "vectors": st["source"], "stats": st["stats"],
                      "lists": L, "tops": T, "subs_per_top_mean": round(L / T, 1), "empty_lists": int((counts == 0).sum()),
                      "list_entry_B": list_entry, "sub_entry_B": sub_entry, "row_B": ROW,
                      "startup_kB": round((T * (DIM + 4) + T * 16 + (FIRST_DIMS * DIM * 4 if FIRST_DIMS else 0)) / 1024), "build_s": st["build_s"],
                      "encode_s": round(encoded - t0, 1), "sweep_s": round(time.time() - encoded, 1),
                      "cheapest": cheapest, "best_recall_within": best, "rows": out}), flush=True)
    if rabitq:
        del U, F


if __name__ == "__main__":
    sizes = [int(s) for s in sys.argv[1].split(",")]
    Q = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    ntops, nprobes, rescores = (json.loads(os.environ[k]) if k in os.environ else d for k, d in (("SIM_NTOP", [8, 16, 24, 32, 48, 64, 96, 128]), ("SIM_NPROBE", [16, 24, 32, 48, 64]), ("SIM_RESCORE", [20, 30, 50, 100, 200, 400])))
    grid = [(a, b, c) for a in ntops for b in nprobes for c in rescores]
    print(json.dumps({"device": torch.cuda.get_device_name(0) if dev.type == "cuda" else "cpu", "torch": torch.__version__,
                      **({"first_dims": FIRST_DIMS} if FIRST_DIMS else {})}), flush=True)
    kinds = sys.argv[3].split(",") if len(sys.argv) > 3 else ["bits"]
    # SIM_DEADLINE (Unix seconds): codes not started by then are skipped, so a leased machine's run ends in time.
    deadline = float(os.environ.get("SIM_DEADLINE", "inf"))
    for n in sizes:
        if time.time() > deadline:
            print(json.dumps({"passages": n, "skipped": "SIM_DEADLINE passed"}), flush=True)
            continue
        st = build(n, Q)
        for kind in kinds:
            if time.time() > deadline:
                print(json.dumps({"codes": kind, "passages": st["n"], "skipped": "SIM_DEADLINE passed"}), flush=True)
                continue
            sweep(st, grid, kind)
        del st
        if dev.type == "cuda":
            torch.cuda.empty_cache()
