"""Questions a model writes for the critic's training passages: the next lever for relevance.

The relevance data's templated questions ("What is <heading>?", a man page's option line) did not
transfer: fine-tuning on them lowered the labelled dev split (docs/benchmarks-answer.md, *Who
critiques*). Users ask about what a passage says, in their own words, so here a small instruct
model (Qwen2.5-Coder on the native llama-server the benchmarks build) reads a training passage and
writes one question it answers, as InPars and Promptagator built retrieval data. The passages are
build_data.py's own (rustup's other books and Debian man pages: never the labelled set's
documents); FAQ answers are skipped, since they come with real people's questions.

    $LLAMA_SERVER -m ~/.cache/selfrag/real-models/gguf/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf -t 2 --port 8091 &
    python training/critic/write_questions.py --server http://127.0.0.1:8091 --count 2000 \
        --out training/critic/data/written-questions.jsonl.gz
    python training/critic/build_data.py --written training/critic/data/written-questions.jsonl.gz

A question is kept only if it is a question (ends with '?', 4 to 30 words), does not point at
what it was shown ("in the given text"), and copies no run of six words from its passage (a copied sentence is what the cloze queries already are). Resumable:
an existing output's passages are not asked again. Standard library only, so it runs beside the
training environment or without it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from build_data import collect_passages, words  # noqa: E402

SYSTEM = "You write questions that a user of a piece of software would ask."
ASK = (
    "Passage:\n{passage}\n\n"
    "Write one question that this passage answers, as a user who has not read it would ask it: "
    "in your own words, not the passage's phrases. Reply with the question only."
)
COPY_RUN = 6
# A question that points at what it was shown ("the purpose of X in the given text?") is not one a
# user asks: Qwen2.5-Coder-1.5B wrote 2 of 8 such in the first trial.
POINTS_AT_PASSAGE = re.compile(r"\b(passage|given|above|snippet|excerpt|this text|the text|the entry|this entry|the document)\b", re.I)


def usable(question: str, passage: str) -> bool:
    """A question (4 to 30 words, ending with '?') that does not point at the passage and copies no
    run of COPY_RUN words from it."""
    q = words(question)
    if not question.endswith("?") or not 4 <= len(q) <= 30 or POINTS_AT_PASSAGE.search(question):
        return False
    p = " ".join(words(passage))
    return not any(" ".join(q[i : i + COPY_RUN]) in p for i in range(len(q) - COPY_RUN + 1))


def clean(reply: str) -> str:
    """The first line, without a label or quotes the model may wrap it in."""
    line = reply.strip().splitlines()[0] if reply.strip() else ""
    line = re.sub(r"^(question|q)\s*[:.]\s*", "", line, flags=re.I)
    return line.strip().strip('"“”').strip()


def ask(server: str, passage: str, seed: int) -> str:
    body = {
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": ASK.format(passage=passage)}],
        "max_tokens": 48,
        "temperature": 0.7,
        "seed": seed,
    }
    req = urllib.request.Request(
        f"{server}/v1/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=300) as r:
        out = json.load(r)
    return out["choices"][0]["message"]["content"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True, help="a running llama-server's address")
    ap.add_argument("--count", type=int, default=2000, help="passages to ask about")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7, help="the seed build_data.py drew its pool with")
    ap.add_argument("--model", default="", help="the model's name and SHA-256, written beside each question")
    a = ap.parse_args()

    passages, _, _ = collect_passages(random.Random(a.seed))
    pool = [p for p in passages if "faq" not in p and len(words(p["text"])) >= 40]
    chosen = random.Random(a.seed + 1).sample(pool, min(a.count, len(pool)))
    done: list[dict] = []
    if os.path.exists(a.out):
        with gzip.open(a.out, "rt") as f:
            done = [json.loads(line) for line in f]
    asked = {(d["doc"], d["passage"]) for d in done}
    kept = sum(1 for d in done if d["question"])
    t0 = time.time()
    for n, p in enumerate(chosen):
        if (p["doc"], p["text"]) in asked:
            continue
        reply = ask(a.server, p["text"], a.seed + n)
        q = clean(reply)
        ok = usable(q, p["text"])
        kept += ok
        # Refused questions are kept too (question ""), with the reply, so a rerun does not ask again.
        done.append({"doc": p["doc"], "heading": p["heading"], "passage": p["text"], "question": q if ok else "",
                     "reply": reply.strip()[:300], "model": a.model})
        if len(done) % 25 == 0 or n == len(chosen) - 1:
            write(a.out, done)
            print(f"{len(done)} asked, {kept} kept, {(time.time() - t0) / max(1, n + 1):.1f} s a passage", flush=True)
    write(a.out, done)
    print(f"{len(done)} asked, {kept} kept -> {a.out}")


def write(path: str, rows: list[dict]) -> None:
    # mtime 0: the same rows write the same bytes.
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for r in rows:
            f.write((json.dumps(r, ensure_ascii=False) + "\n").encode())


if __name__ == "__main__":
    main()
