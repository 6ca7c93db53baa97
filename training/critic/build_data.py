"""Builds the critic's training data from real documents that the labelled questions never use.

Sources (read from this machine; none of them is in test/fixtures/real/docs.json):
  - rustup's books: the Cargo book, the Rust Reference, Rust by Example, the rustc and rustdoc
    books, the edition guide, the Rustonomicon and the embedded book (not the Rust book itself);
  - Debian man pages (section 1), minus the packages the labelled set reads;
  - Debian FAQ files, which hold real people's questions with their answers.

Relevance pairs (question, passage, label): questions from FAQ files (real), from section
headings (templated), from man-page option and NAME lines (templated), and inverse-cloze queries
(a sentence taken out of its passage). Each positive gets hard negatives (the same document's
best BM25 matches that are not the positive, as the app's first stage would rank them) and one
easy negative (another document).

Support pairs (passage, statement, label in full / partial / none): a passage's own sentence or
two (full), its sentence joined to one from elsewhere (partial), a sibling passage's sentence of
the same document (none: the labelled set's own kind of negative), a sentence with its number or
code word swapped for another from the document (none), and a sentence from another document.

    python3 training/critic/build_data.py [--out training/critic/data] [--seed 7]

Writes relevance.jsonl.gz and support.jsonl.gz (each line: a pair with its `split`: train or
held, split by document) and sources.json (what was read, with counts).
"""

from __future__ import annotations

import argparse
import glob
import gzip
import html.parser
import json
import math
import os
import random
import re
import subprocess
from collections import Counter, defaultdict

RUST_ROOTS = sorted(glob.glob(os.path.expanduser("~/.rustup/toolchains/*/share/doc/rust/html")))
RUST_BOOKS = ["cargo", "reference", "rust-by-example", "rustc", "rustdoc", "edition-guide", "nomicon", "embedded-book"]
# The labelled set reads these packages' documents (test/fixtures/real/docs.json): never train on them.
EXCLUDED_PACKAGES = {"bc", "time", "libtasn1-doc", "libtasn1-6", "libtasn1-bin", "shared-mime-info", "ninja-build", "valgrind"}
EXCLUDED_COMMANDS = {"bc", "dc", "time", "valgrind", "ninja", "update-mime-database", "asn1Coding", "asn1Decoding", "asn1Parser",
                     "callgrind_annotate", "callgrind_control", "cg_annotate", "cg_diff", "cg_merge", "ms_print", "vgdb", "valgrind-listener"}
FAQ_FILES = ["procps/FAQ.gz", "man-db/FAQ", "zlib1g-dev/FAQ.gz", "lsof/00FAQ.gz", "base-files/FAQ", "xz-utils/faq.txt.gz",
             "sed/sedfaq.txt.gz", "gnupg/FAQ", "ncurses-base/FAQ"]

TARGET_CHARS = 800  # the app's passages: about 200 tokens at four characters a token (src/core/chunk.ts)
WORD = re.compile(r"[a-z0-9_]+")
STOP = set("a an the of to in on for and or is are be by with as at it this that from can do does how what which why when i you your we not if into its".split())


def words(text: str) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in STOP]


def sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z`(\"'])", text)
    return [p.strip() for p in parts if len(p.split()) >= 5]


def chunk(text: str) -> list[str]:
    """Whole sentences up to about TARGET_CHARS, as the app's chunker cuts a document."""
    out, cur = [], ""
    for s in re.split(r"(?<=[.!?:])\s+", text):
        if cur and len(cur) + len(s) > TARGET_CHARS:
            out.append(cur.strip())
            cur = ""
        cur += " " + s
    if cur.strip():
        out.append(cur.strip())
    return [c for c in out if len(c) > 120]


class Sections(html.parser.HTMLParser):
    """mdBook HTML → (heading, text) sections, reading only <main> (no menus, no keyboard help)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.skip = 0
        self.heading: str | None = None
        self.in_heading = False
        self.buf: list[str] = []
        self.htext: list[str] = []
        self.sections: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "main":
            self.depth += 1
        if not self.depth:
            return
        if tag in ("script", "style", "button"):
            self.skip += 1
        if re.fullmatch(r"h[1-4]", tag):
            self.flush()
            self.in_heading = True
            self.htext = []
        if tag in ("p", "li", "pre", "br", "tr", "dt", "dd"):
            self.buf.append(" ")

    def handle_endtag(self, tag):
        if tag == "main":
            self.flush()
            self.depth = max(0, self.depth - 1)
        if not self.depth:
            return
        if tag in ("script", "style", "button"):
            self.skip = max(0, self.skip - 1)
        if re.fullmatch(r"h[1-4]", tag) and self.in_heading:
            self.in_heading = False
            self.heading = " ".join("".join(self.htext).split())
        if tag in ("p", "li", "pre"):
            self.buf.append(" ")

    def handle_data(self, data):
        if not self.depth or self.skip:
            return
        (self.htext if self.in_heading else self.buf).append(data)

    def flush(self):
        text = " ".join("".join(self.buf).split())
        if self.heading and len(text) > 150:
            self.sections.append((self.heading, text))
        self.buf = []


def rust_documents() -> list[dict]:
    if not RUST_ROOTS:
        raise SystemExit("rustup's documentation is missing (rustup component add rust-docs).")
    root = RUST_ROOTS[0]
    docs = []
    for book in RUST_BOOKS:
        for path in sorted(glob.glob(f"{root}/{book}/**/*.html", recursive=True)):
            if any(x in path for x in ("print.html", "404.html", "toc.html", "searchindex")):
                continue
            p = Sections()
            with open(path, encoding="utf-8", errors="replace") as f:
                p.feed(f.read())
            # English only: Rust by Example ships translations beside the English pages.
            sections = [(h, t) for h, t in p.sections if sum(c.isascii() for c in t) > 0.97 * len(t)]
            if sections:
                p.sections = sections
                docs.append({"id": f"rust/{book}/{os.path.relpath(path, f'{root}/{book}')}", "sections": p.sections})
    return docs


def man_documents(limit: int, rng: random.Random) -> list[dict]:
    pages = sorted(glob.glob("/usr/share/man/man1/*.1.gz"))
    rng.shuffle(pages)
    docs = []
    seen: Counter = Counter()
    env = dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0")
    for path in pages:
        cmd = os.path.basename(path)[: -len(".1.gz")]
        prefix = re.split(r"[-_.]", cmd)[0]
        if cmd in EXCLUDED_COMMANDS or seen[prefix] >= 5:  # no one tool's hundred subcommand pages
            continue
        try:
            out = subprocess.run(["man", "-l", path], capture_output=True, text=True, env=env, timeout=10).stdout
        except subprocess.TimeoutExpired:
            continue
        out = re.sub(r".\x08", "", out)
        if len(out) < 1500:
            continue
        seen[prefix] += 1
        docs.append({"id": f"man/{cmd}", "cmd": cmd, "raw": out})
        if len(docs) >= limit:
            break
    return docs


def man_sections(doc: dict) -> list[tuple[str, str]]:
    sections, head, buf = [], None, []
    for line in doc["raw"].splitlines():
        if re.fullmatch(r"[A-Z][A-Z ]+", line.strip()) and not line.startswith(" "):
            if head and buf:
                sections.append((head, " ".join(" ".join(buf).split())))
            head, buf = line.strip().title(), []
        elif head:
            buf.append(line.strip())
    if head and buf:
        sections.append((head, " ".join(" ".join(buf).split())))
    return [(h, t) for h, t in sections if len(t) > 100]


def faq_pairs() -> list[dict]:
    """Question lines (ending in '?') with the paragraphs that follow, from Debian's FAQ files."""
    out = []
    for rel in FAQ_FILES:
        path = f"/usr/share/doc/{rel}"
        if not os.path.exists(path):
            continue
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        q, ans = None, []
        items = []
        for line in lines:
            s = line.strip()
            m = re.match(r"^(?:Q[:.]|\d+(?:\.\d+)*[.)]?|[-*])?\s*(.{12,160}\?)$", s)
            if m and not line.startswith("\t") and len(s.split()) >= 3:
                if q and ans:
                    items.append((q, " ".join(" ".join(ans).split())))
                q, ans = m.group(1).strip(), []
            elif q:
                ans.append(s)
        if q and ans:
            items.append((q, " ".join(" ".join(ans).split())))
        for q, a in items:
            a = a[:TARGET_CHARS]
            if len(a) > 120:
                out.append({"doc": f"faq/{rel.split('/')[0]}", "question": q, "answer": a})
    return out


class Bm25:
    def __init__(self, texts: list[str]) -> None:
        self.docs = [Counter(words(t)) for t in texts]
        self.len = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.len) / max(1, len(self.len))
        df = Counter(w for d in self.docs for w in d)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    def rank(self, query: str, among: list[int]) -> list[int]:
        q = words(query)
        def score(i: int) -> float:
            d, s = self.docs[i], 0.0
            for w in q:
                tf = d.get(w, 0)
                if tf:
                    s += self.idf[w] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * self.len[i] / self.avg))
            return s
        return sorted(among, key=score, reverse=True)


GERUND = re.compile(r"^([A-Z][a-z]+ing)\b")


def heading_question(h: str, topic: str, rng: random.Random) -> str:
    h = re.sub(r"^[\d.]+\s*", "", h).strip().rstrip(":")
    low = h[0].lower() + h[1:] if h[:2] != h[:2].upper() else h
    if GERUND.match(h):
        forms = [f"How do I go about {low}?", f"What should I know about {low}?", f"{h} in {topic}: how does it work?"]
    elif h.lower().startswith(("how ", "what ", "why ", "when ", "where ", "which ")):
        forms = [h if h.endswith("?") else h + "?"]
    else:
        forms = [f"What is {low}?", f"How does {low} work in {topic}?", f"Explain {low}.", f"What does {topic} say about {low}?"]
    return rng.choice(forms)


VERBS = set("add allow append ask build change check clear compare compress convert copy create decompress delete disable display do dump enable exit explain follow force format generate give ignore include keep list load make mark move output overwrite preserve print prompt read recurse remove rename report reset run save scale search send set show skip sort specify start stop suppress take treat update use verify wait write".split())


def option_questions(doc: dict) -> list[tuple[str, str]]:
    """'-x, --flag  do something' → ('With cmd, how do I do something?', the option's line)."""
    out = []
    lines = doc["raw"].splitlines()
    for i, line in enumerate(lines[:-1]):
        if not re.match(r"^\s{4,8}-{1,2}[A-Za-z]", line):
            continue
        desc = lines[i + 1].strip() if len(line.split()) <= 3 else " ".join(line.split()[1:])
        first = desc.split(" ")[0].lower() if desc else ""
        desc = re.split(r"(?<=[.;])\s", desc)[0]
        if first in VERBS and 4 <= len(desc.split()) <= 18:
            out.append((f"With {doc['cmd']}, how do I {desc[0].lower() + desc[1:].rstrip('.')}?", desc))
    return out


def collect_passages(rng: random.Random) -> tuple[list[dict], list[dict], list[dict]]:
    """Every training passage ({doc, heading, text, first}, FAQ answers with their `faq` question),
    the man pages read and the FAQ pairs. `rng` picks the man pages, so a seed gives the same pool."""
    passages: list[dict] = []
    def add_doc(doc_id: str, sections: list[tuple[str, str]]) -> None:
        for h, text in sections:
            for j, c in enumerate(chunk(text)):
                passages.append({"doc": doc_id, "heading": h, "text": c, "first": j == 0})

    for d in rust_documents():
        add_doc(d["id"], d["sections"])
    man = man_documents(400, rng)
    for d in man:
        add_doc(d["id"], man_sections(d))
    faqs = faq_pairs()
    for f in faqs:
        passages.append({"doc": f["doc"], "heading": f["question"], "text": f["answer"], "first": True, "faq": f["question"]})
    return passages, man, faqs


def build(seed: int, written: list[dict] | None = None) -> tuple[list[dict], list[dict], dict]:
    rng = random.Random(seed)
    passages, man, faqs = collect_passages(rng)

    texts = [p["text"] for p in passages]
    bm = Bm25(texts)
    by_doc: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(passages):
        by_doc[p["doc"]].append(i)
    # Relatives: a Rust book's chapters form one document family (the app's library holds a whole book).
    family = lambda d: "/".join(d.split("/")[:2]) if d.startswith("rust/") else d.split("/")[0]
    by_family: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(passages):
        by_family[family(p["doc"])].append(i)
    docs = sorted(by_doc)
    held_docs = set(rng.sample(docs, max(1, len(docs) // 10)))

    rel: list[dict] = []
    def rel_group(query: str, pos: int, kind: str, positive_text: str | None = None) -> None:
        p = passages[pos]
        fam = by_family[family(p["doc"])]
        pool = [i for i in (fam if len(fam) < 4000 else rng.sample(fam, 4000)) if i != pos]
        # Not the positive's own section: its other passages may answer just as well (false negatives).
        hard = [i for i in bm.rank(query, pool)[:10]
                if passages[i]["text"] != p["text"] and (passages[i]["doc"], passages[i]["heading"]) != (p["doc"], p["heading"])]
        hard = rng.sample(hard[:6], min(3, len(hard[:6])))
        other = rng.randrange(len(passages))
        while family(passages[other]["doc"]) == family(p["doc"]):
            other = rng.randrange(len(passages))
        split = "held" if p["doc"] in held_docs else "train"
        rel.append({"question": query, "passage": positive_text or p["text"], "label": 1, "kind": kind, "doc": p["doc"], "split": split})
        for i in hard:
            rel.append({"question": query, "passage": passages[i]["text"], "label": 0, "kind": kind + "/hard", "doc": p["doc"], "split": split})
        rel.append({"question": query, "passage": passages[other]["text"], "label": 0, "kind": kind + "/easy", "doc": p["doc"], "split": split})

    counts = Counter()
    for i, p in enumerate(passages):
        if "faq" in p:
            rel_group(p["faq"], i, "faq")
            counts["faq"] += 1
    firsts = [i for i, p in enumerate(passages) if p["first"] and "faq" not in p and p["doc"].startswith("rust/")]
    # A heading says what a question is about only when it names something: not "Examples" or "Syntax".
    generic = {"examples", "example", "syntax", "introduction", "overview", "summary", "description", "usage", "options",
               "notes", "see also", "background", "motivation", "details", "conclusion", "further reading", "exercises"}
    firsts = [i for i in firsts if len(passages[i]["heading"].split()) >= 2 and passages[i]["heading"].lower() not in generic]
    for i in rng.sample(firsts, min(600, len(firsts))):
        topic = {"cargo": "Cargo", "reference": "Rust", "rust-by-example": "Rust", "rustc": "rustc", "rustdoc": "rustdoc",
                 "edition-guide": "Rust editions", "nomicon": "unsafe Rust", "embedded-book": "embedded Rust"}[passages[i]["doc"].split("/")[1]]
        rel_group(heading_question(passages[i]["heading"], topic, rng), i, "heading")
        counts["heading"] += 1
    man_by_cmd = {d["id"]: d for d in man}
    opts = []
    for doc_id, d in man_by_cmd.items():
        for q, desc in option_questions(d):
            hit = [i for i in by_doc[doc_id] if desc[:40] in passages[i]["text"]]
            if hit:
                opts.append((q, hit[0]))
    for q, i in rng.sample(opts, min(450, len(opts))):
        rel_group(q, i, "man-option")
        counts["man-option"] += 1
    for doc_id, d in man_by_cmd.items():
        m = re.search(r"NAME\s+[^\n]*?\s[-\u2010\u2013\u2014]\s+(.{10,100})\n", d["raw"])
        if m and by_doc[doc_id] and rng.random() < 0.6:
            what = m.group(1).strip().rstrip(".")
            rel_group(rng.choice([f"Which command can I use to {what}?", f"What program would {what}?", f"Is there a tool to {what}?"]),
                      by_doc[doc_id][0], "man-name")
            counts["man-name"] += 1
    # Inverse cloze: a sentence as the query, its passage without it as the positive.
    for i in rng.sample(range(len(passages)), 600):
        ss = sentences(passages[i]["text"])
        if len(ss) < 3:
            continue
        s = rng.choice(ss)
        rest = passages[i]["text"].replace(s, " ").strip() if rng.random() < 0.85 else passages[i]["text"]
        rel_group(s, i, "cloze", positive_text=rest)
        counts["cloze"] += 1

    # Questions a model wrote for a passage (write_questions.py), matched back to it by its text;
    # last, and on a saved random state, so every other pair is drawn exactly as without them.
    index_of = {(p["doc"], p["text"]): i for i, p in enumerate(passages)}
    state = rng.getstate()
    for w in written or []:
        i = index_of.get((w["doc"], w["passage"])) if w["question"] else None
        if i is not None:
            rel_group(w["question"], i, "written")
            counts["written"] += 1
    rng.setstate(state)

    sup: list[dict] = []
    for i in rng.sample(range(len(passages)), min(2200, len(passages))):
        p = passages[i]
        ss = sentences(p["text"])
        if len(ss) < 2:
            continue
        split = "held" if p["doc"] in held_docs else "train"
        row = lambda statement, label, kind: sup.append({"passage": p["text"], "statement": statement, "label": label, "kind": kind, "doc": p["doc"], "split": split})
        j = rng.randrange(len(ss))
        row(ss[j], "full", "own")
        if j + 1 < len(ss) and rng.random() < 0.4:
            row(ss[j] + " " + ss[j + 1], "full", "own-two")
        siblings = [k for k in by_doc[p["doc"]] + by_family[family(p["doc"])][:200] if k != i]
        sib_sents = [s for k in rng.sample(siblings, min(6, len(siblings))) for s in sentences(passages[k]["text"]) if s not in p["text"]]
        if sib_sents:
            row(rng.choice(sib_sents), "none", "sibling")
            row(rng.choice(ss) + " " + rng.choice(sib_sents), "partial", "mixed")
        other = passages[rng.randrange(len(passages))]
        os_ = sentences(other["text"])
        if os_ and other["doc"] != p["doc"] and rng.random() < 0.5:
            row(rng.choice(os_), "none", "elsewhere")
        # A swapped number or code word: the passage's own sentence, now saying something else.
        s = rng.choice(ss)
        toks = re.findall(r"`[^`]+`|\b\d+\b", s)
        pool = [t for t in re.findall(r"`[^`]+`|\b\d+\b", " ".join(passages[k]["text"] for k in siblings[:20])) if t not in p["text"]]
        if toks and pool:
            row(s.replace(rng.choice(toks), rng.choice(pool), 1), "none", "swapped")
    about = {
        "seed": seed,
        "rust_root": RUST_ROOTS[0] if RUST_ROOTS else None,
        "rust_books": RUST_BOOKS,
        "man_pages": len(man),
        "faq_pairs": len(faqs),
        "passages": len(passages),
        "relevance_queries": dict(counts),
        "relevance_pairs": len(rel),
        "support_pairs": dict(Counter(r["label"] for r in sup)),
        "held_documents": len(held_docs),
        "excluded_packages": sorted(EXCLUDED_PACKAGES),
    }
    return rel, sup, about


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "data"))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--written", help="questions written by a model (write_questions.py's output), added as relevance queries")
    a = ap.parse_args()
    written = None
    if a.written:
        with gzip.open(a.written, "rt") as f:
            written = [json.loads(line) for line in f]
    rel, sup, about = build(a.seed, written)
    os.makedirs(a.out, exist_ok=True)
    for name, rows in (("relevance", rel), ("support", sup)):
        # mtime 0: the same data writes the same bytes.
        with open(os.path.join(a.out, f"{name}.jsonl.gz"), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            for r in rows:
                f.write((json.dumps(r, ensure_ascii=False) + "\n").encode())
    with open(os.path.join(a.out, "sources.json"), "w") as f:
        json.dump(about, f, indent=2)
    print(json.dumps(about, indent=2))


if __name__ == "__main__":
    main()
