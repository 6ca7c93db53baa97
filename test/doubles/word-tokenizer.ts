// Token counting for the engine double. The tiny test models' tokenizer.json is
// WordLevel behind Hugging Face's `Whitespace` pre-tokenizer, so its token count
// is exactly the number of `\w+|[^\w\s]+` pieces (ASCII `\w`, as transformers.js
// implements it, so "Misérables" is three tokens); word-tokenizer.test.ts checks
// this against the real tokenizer file.

const COUNT = /\w+|[^\w\s]+/g;

export function countTokens(text: string): number {
  return text.match(COUNT)?.length ?? 0;
}

const REFLECTION =
  /(\[(?:No Retrieval|Retrieval|Continue to Use Evidence|Irrelevant|Relevant|Fully supported|Partially supported|No support \/ Contradictory|Utility:[1-5])\]|<\/?paragraph>)/;
const PIECE = /\s*[\p{L}\p{N}_]+|\s*[^\p{L}\p{N}_\s]|\s+/gu;

/**
 * The units the double decodes in: a word with its leading whitespace, or one
 * punctuation mark, like a BPE tokenizer's common tokens. Reflection tokens are
 * single units, as in a native Self-RAG vocabulary. Concatenation gives back the text.
 */
export function decodePieces(text: string, split: Readonly<Record<string, string[]>> = {}): string[] {
  const out: string[] = [];
  for (const part of text.split(REFLECTION)) {
    if (!part) continue;
    if (REFLECTION.test(part) && part.match(REFLECTION)?.[0] === part) {
      out.push(part);
      continue;
    }
    for (const p of part.match(PIECE) ?? []) out.push(...(split[p] ?? [p]));
  }
  return out;
}
