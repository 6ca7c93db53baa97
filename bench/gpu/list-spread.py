# How scattered a question's true neighbours are over the lists a sharded corpus reads: one
# spherical k-means of `lists` lists (128 passages a list, as the writer files them), and for each
# question its exact top 10, how many lists they lie in, and how many lists must be read (in the
# order of the question's cosine to the centroids) before all ten are held. This is what separates
# real questions from synthetic ones drawn to match pair, nearest-neighbour and variance statistics
# (docs/benchmarks-real.md, "Synthetic vectors matched to the real ones' statistics").
#   python3 bench/gpu/list-spread.py NAME VECTORS.f32 QUERIES.f32 [rows] [questions]  (CPU, ~1 minute at 58,624 rows)
import sys
import numpy as np
import torch

torch.set_num_threads(1)
name, vp, qp = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 58624
q = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
load = lambda p, m: torch.nn.functional.normalize(torch.from_numpy(np.fromfile(p, dtype="float32", count=m * 384).reshape(m, 384)), dim=-1)
X, Q = load(vp, n), load(qp, q)
lists = max(1, n // 128)
C = X[torch.randperm(n, generator=torch.Generator().manual_seed(1))[:lists]].clone()
for _ in range(10):
    a = (X @ C.T).argmax(1)
    C = torch.nn.functional.normalize(torch.zeros(lists, 384).index_add_(0, a, X), dim=-1)
a = (X @ C.T).argmax(1)
top = (Q @ X.T).topk(10, dim=1)
spread = torch.tensor([len(set(a[i].tolist())) for i in top.indices], dtype=torch.float32)
order = (Q @ C.T).argsort(1, descending=True)
rank = torch.empty_like(order)
rank.scatter_(1, order, torch.arange(lists).expand(q, lists).clone())
need = torch.tensor([rank[i, a[top.indices[i]]].max().item() + 1 for i in range(q)], dtype=torch.float32)
print(f"{name}: {n} rows, {lists} lists, {q} questions; top 10 in {spread.mean():.2f} lists (median {spread.median():.0f}); "
      f"lists read in centroid order to hold all 10: median {need.median():.0f}, p90 {need.quantile(0.9):.0f}; "
      f"cosine of the 1st / 10th neighbour {top.values[:, 0].mean():.3f} / {top.values[:, 9].mean():.3f}")
