"""The critic as twin encoders inside one sequence classifier.

transformers.js runs a critic as a BERT sequence classifier on a tokenised pair. A cross-encoder
fine-tuned from all-MiniLM-L6-v2 on the few thousand pairs two CPU cores can train judged the
labelled questions worse than MiniLM's plain cosine (relevance ROC AUC 0.513 against 0.621,
support 0.756 against 0.918): a bi-encoder's pre-training is wasted when its two texts are read
together. So this graph reads them apart, as all-MiniLM-L6-v2 was trained to:

- the tokenizer writes the pair as `[CLS] A [SEP] [CLS] B [SEP]` (a second [CLS] opens the second
  text, as the bi-encoder always saw one; `pair_template`), with token types 0 and 1;
- an attention mask built from the token types lets each text attend only to itself, and each
  text's positions count from 0, so each is encoded exactly as the bi-encoder encodes it alone
  (cosine 1.0000 against the separate encodings, checked in `check_twin`);
- the head reads one number from the two texts' token vectors and maps it to logits, one
  `scale · x + bias` (relevance) or three (support). That number is, by default, **MaxSim**
  (ColBERT's late interaction): each content word of the query side (the question; for support,
  the statement) finds its most similar token in the other text, and the similarities are
  averaged. Function words, punctuation and the markers count for nothing (`token_weight`, a
  table over the vocabulary gathered by token id, inside the graph). The mean-pooled cosine
  (sentence-transformers' reading, `scoring="cosine"`) is kept for comparison: it judges topic,
  and the labelled negatives share their question's topic. On the dev split, untrained: MaxSim
  relevance 0.721 against cosine 0.588, support 0.998 against 0.892.

The encoder is then fine-tuned contrastively, as sentence-transformers does (each question's
passage against its near misses and every other passage in the batch), and the head is fitted on
the cosine alone, so the logit is a calibrated probability and never pulls on the encoder.
"""

from __future__ import annotations

import torch
from tokenizers.processors import TemplateProcessing
from transformers import BertModel

# Words that carry the question's form, not what it asks about: they would match any passage.
FUNCTION_WORDS = (
    "a an the and or but if then than so of to in on at by for with from into onto over under about as "
    "is are was were be been being am do does did done doing have has had having can could will would "
    "shall should may might must i me my we our you your he she it its they them their this that these "
    "those there here what which who whom whose when where why how not no yes all any some each every "
    "one use using used get gets make makes also just only very more most much many such"
).split()


def pair_template(tok) -> None:
    """The tokenizer writes a pair as two bi-encoder inputs back to back (saved in tokenizer.json,
    whose TemplateProcessing transformers.js applies as written)."""
    cls, sep = tok.cls_token, tok.sep_token
    tok._tokenizer.post_processor = TemplateProcessing(
        single=f"{cls} $A {sep}",
        pair=f"{cls} $A {sep} {cls}:1 $B:1 {sep}:1",
        special_tokens=[(cls, tok.cls_token_id), (sep, tok.sep_token_id)],
    )


# A statement's negation changes what it claims: for support these count ("Bees do not make honey"
# must find a "not" in the passage). A question's "not" does not change what passage answers it.
NEGATIONS = ("not", "no")


def token_weights(tok, negations_count: bool = False) -> torch.Tensor:
    """1 for a token that says what a text is about; 0 for markers, function words and punctuation."""
    w = torch.ones(len(tok))
    drop = set(tok.all_special_ids)
    drop |= {i for t, i in tok.get_vocab().items() if len(t) == 1 and not t.isalnum()}
    words = [x for x in FUNCTION_WORDS if not (negations_count and x in NEGATIONS)]
    drop |= {i for i in tok.convert_tokens_to_ids(words) if i != tok.unk_token_id}
    w[sorted(drop)] = 0.0
    return w


class TwinScorer(torch.nn.Module):
    def __init__(self, base: str, num_labels: int, tok, scoring: str = "maxsim", query_segment: int = 0) -> None:
        super().__init__()
        # Eager attention: the block mask below is a float mask of its own, which every backend reads alike.
        self.bert = BertModel.from_pretrained(base, add_pooling_layer=False, attn_implementation="eager")
        self.scoring = scoring
        # Which text asks (0: the first, the question; 1: the second, support's statement).
        self.query_segment = query_segment
        self.register_buffer("token_weight", token_weights(tok, negations_count=query_segment == 1))
        not_marker = torch.ones(len(tok))
        not_marker[sorted(tok.all_special_ids)] = 0.0
        self.register_buffer("not_marker", not_marker)
        # One logit for relevance (sigmoid: P(relevant)); three for support (full, partial, none).
        # Starting points: relevance centred where MiniLM's cosines of related texts sit.
        self.scale = torch.nn.Parameter(torch.full((num_labels,), 10.0 if num_labels == 1 else 0.0))
        self.bias = torch.nn.Parameter(torch.full((num_labels,), -4.0 if num_labels == 1 else 0.0))
        if num_labels == 3:
            with torch.no_grad():
                self.scale.copy_(torch.tensor([10.0, 0.0, -10.0]))
                self.bias.copy_(torch.tensor([-5.0, 0.0, 5.0]))

    def encode(self, input_ids, attention_mask, token_type_ids):
        seg = token_type_ids
        real = attention_mask.bool()
        first = (seg == 0) & real
        second = (seg == 1) & real
        # Each token attends to the tokens of its own text only.
        allowed = (seg.unsqueeze(2) == seg.unsqueeze(1)) & real.unsqueeze(1)
        mask = torch.where(allowed.unsqueeze(1), 0.0, torch.finfo(torch.float32).min)
        # Positions count from 0 in each text, as each was encoded alone.
        positions = torch.where(seg == 0, first.long().cumsum(1) - 1, second.long().cumsum(1) - 1).clamp(min=0)
        h = self.bert(
            input_ids=input_ids,
            attention_mask=mask,
            token_type_ids=torch.zeros_like(seg),
            position_ids=positions,
        ).last_hidden_state
        return h, first, second

    def cosine(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
        h, first, second = self.encode(input_ids, attention_mask, token_type_ids)

        def pooled(which: torch.Tensor) -> torch.Tensor:
            w = which.unsqueeze(-1).to(h.dtype)
            return torch.nn.functional.normalize((h * w).sum(1) / w.sum(1).clamp(min=1.0), dim=-1)

        return (pooled(first) * pooled(second)).sum(-1)

    def maxsim(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
        h, first, second = self.encode(input_ids, attention_mask, token_type_ids)
        asks, other = (first, second) if self.query_segment == 0 else (second, first)
        hn = torch.nn.functional.normalize(h, dim=-1)
        sims = hn @ hn.transpose(1, 2)  # [pairs, tokens, tokens]: both texts' tokens, masked apart below
        return late_interaction(sims, input_ids, asks, input_ids, other, self.token_weight, self.not_marker)

    def feature(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
        score = self.maxsim if self.scoring == "maxsim" else self.cosine
        return score(input_ids, attention_mask, token_type_ids)

    def head(self, x: torch.Tensor) -> torch.Tensor:
        return x.unsqueeze(-1) * self.scale + self.bias

    def forward(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
        return self.head(self.feature(input_ids, attention_mask, token_type_ids))


def late_interaction(sims, idq, q_mask, idd, d_mask, token_weight, not_marker) -> torch.Tensor:
    """MaxSim from token cosines `sims` [..., query tokens, document tokens].

    Each content token of the query takes its best cosine over the document's tokens (markers
    excluded), and the query's score is their weighted mean. A query of function words only falls
    back to all of its non-marker tokens, so it is still judged by something. The masks and id
    tensors broadcast against `sims`: the query's without its last axis, the document's without
    its second last."""
    d_keep = d_mask & (not_marker[idd] > 0)
    best = sims.masked_fill(~d_keep.unsqueeze(-2), -2.0).max(-1).values
    q = q_mask.to(sims.dtype)
    w = token_weight[idq] * q
    plain = not_marker[idq] * q
    w = torch.where(w.sum(-1, keepdim=True) > 0, w, plain)
    return (best * w).sum(-1) / w.sum(-1).clamp(min=1.0)


@torch.no_grad()
def check_twin(model: TwinScorer, tok) -> float:
    """The smallest cosine between a text as the twin graph encodes it and as the bi-encoder does alone."""
    model.eval()
    a = ["How do I add a dependency to my project?", "What does the borrow checker reject?"]
    b = ["Add the crate to the [dependencies] table of Cargo.toml.", "References that outlive the data they point to."]

    def alone(texts):
        e = tok(texts, padding=True, return_tensors="pt")
        h = model.bert(**e).last_hidden_state
        w = e["attention_mask"].unsqueeze(-1).float()
        return torch.nn.functional.normalize((h * w).sum(1) / w.sum(1), dim=-1)

    want = (alone(a) * alone(b)).sum(-1)
    got = model.cosine(**{k: v for k, v in tok(a, b, padding=True, return_tensors="pt").items()})
    model.train()
    return float(1 - (want - got).abs().max())
