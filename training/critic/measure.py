"""ROC AUC of a critic folder (as train.py writes it) on labelled pairs, through onnxruntime and the
int8 file the page loads: a quick reading while training, before the app's own measurement
(`npm run bench -- critiques`, which reads the same files through transformers.js).

    CRITIQUES_DUMP=/tmp/pairs CRITIQUES_SPLIT=dev npm run bench -- critiques   # the labelled pairs
    python training/critic/measure.py public/critic/selfrag-critic-relevance /tmp/pairs/dev-relevance.jsonl
    python training/critic/measure.py public/critic/selfrag-critic-support /tmp/pairs/dev-support.jsonl
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import onnxruntime as ort
from transformers import AutoTokenizer

from train import roc_auc


def scores(folder: str, pairs: list[tuple[str, str]], support: bool) -> list[float]:
    tok = AutoTokenizer.from_pretrained(folder)
    sess = ort.InferenceSession(os.path.join(folder, "onnx", "model_quantized.onnx"))
    out: list[float] = []
    for i in range(0, len(pairs), 16):
        a, b = zip(*pairs[i : i + 16])
        enc = tok(list(a), list(b), padding=True, truncation="longest_first", max_length=tok.model_max_length, return_tensors="np")
        logits = sess.run(None, {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
        if support:
            e = np.exp(logits - logits.max(-1, keepdims=True))
            p = e / e.sum(-1, keepdims=True)
            out += (p[:, 0] + 0.5 * p[:, 1]).tolist()
        else:
            out += logits[:, 0].tolist()
    return out


def main() -> None:
    folder = sys.argv[1]
    for path in sys.argv[2:]:
        rows = [json.loads(line) for line in open(path)]
        support = "premise" in rows[0]
        pairs = [(r["premise"], r["statement"]) if support else (r["question"], r["passage"]) for r in rows]
        labels = [r["label"] in (True, "full") for r in rows]
        s = scores(folder, pairs, support)
        print(f"{os.path.basename(path)}: {len(rows)} pairs, ROC AUC {roc_auc(s, labels):.4f}")


if __name__ == "__main__":
    main()
