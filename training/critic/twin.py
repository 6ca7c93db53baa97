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
- each text's tokens are averaged and normalised (sentence-transformers' pooling), and the
  head reads their cosine: one logit `scale · cos + bias` (relevance) or three (support).

The encoder is then fine-tuned contrastively, as sentence-transformers does (each question's
passage against its near misses and every other passage in the batch), and the head is fitted on
the cosine alone, so the logit is a calibrated probability and never pulls on the encoder.
"""

from __future__ import annotations

import torch
from tokenizers.processors import TemplateProcessing
from transformers import BertModel


def pair_template(tok) -> None:
    """The tokenizer writes a pair as two bi-encoder inputs back to back (saved in tokenizer.json,
    whose TemplateProcessing transformers.js applies as written)."""
    cls, sep = tok.cls_token, tok.sep_token
    tok._tokenizer.post_processor = TemplateProcessing(
        single=f"{cls} $A {sep}",
        pair=f"{cls} $A {sep} {cls}:1 $B:1 {sep}:1",
        special_tokens=[(cls, tok.cls_token_id), (sep, tok.sep_token_id)],
    )


class TwinScorer(torch.nn.Module):
    def __init__(self, base: str, num_labels: int) -> None:
        super().__init__()
        # Eager attention: the block mask below is a float mask of its own, which every backend reads alike.
        self.bert = BertModel.from_pretrained(base, add_pooling_layer=False, attn_implementation="eager")
        # One logit for relevance (sigmoid: P(relevant)); three for support (full, partial, none).
        # Starting points: relevance centred where MiniLM's cosines of related texts sit.
        self.scale = torch.nn.Parameter(torch.full((num_labels,), 10.0 if num_labels == 1 else 0.0))
        self.bias = torch.nn.Parameter(torch.full((num_labels,), -4.0 if num_labels == 1 else 0.0))
        if num_labels == 3:
            with torch.no_grad():
                self.scale.copy_(torch.tensor([10.0, 0.0, -10.0]))
                self.bias.copy_(torch.tensor([-5.0, 0.0, 5.0]))

    def cosine(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
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

        def pooled(which: torch.Tensor) -> torch.Tensor:
            w = which.unsqueeze(-1).to(h.dtype)
            return torch.nn.functional.normalize((h * w).sum(1) / w.sum(1).clamp(min=1.0), dim=-1)

        return (pooled(first) * pooled(second)).sum(-1)

    def head(self, cos: torch.Tensor) -> torch.Tensor:
        return cos.unsqueeze(-1) * self.scale + self.bias

    def forward(self, input_ids, attention_mask, token_type_ids) -> torch.Tensor:
        return self.head(self.cosine(input_ids, attention_mask, token_type_ids))


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
