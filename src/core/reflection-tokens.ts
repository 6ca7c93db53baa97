// The reflection-token vocabulary of Self-RAG, spelled exactly as in the
// reference implementation: a native Self-RAG tokenizer has these as single
// tokens, so one changed character breaks probability lookup.

export const RETRIEVE = {
  retrieval: '[Retrieval]',
  noRetrieval: '[No Retrieval]',
  continueEvidence: '[Continue to Use Evidence]',
} as const;

export const ISREL = {
  relevant: '[Relevant]',
  irrelevant: '[Irrelevant]',
} as const;

export const ISSUP = {
  full: '[Fully supported]',
  partial: '[Partially supported]',
  none: '[No support / Contradictory]',
} as const;

export const ISUSE = ['[Utility:1]', '[Utility:2]', '[Utility:3]', '[Utility:4]', '[Utility:5]'] as const;

export const PARAGRAPH_OPEN = '<paragraph>';
export const PARAGRAPH_CLOSE = '</paragraph>';
const END_OF_SEQUENCE = '</s>';

export type ReflectionToken =
  | (typeof RETRIEVE)[keyof typeof RETRIEVE]
  | (typeof ISREL)[keyof typeof ISREL]
  | (typeof ISSUP)[keyof typeof ISSUP]
  | (typeof ISUSE)[number];

export const ALL_REFLECTION_TOKENS: readonly ReflectionToken[] = [
  ...Object.values(RETRIEVE),
  ...Object.values(ISREL),
  ...Object.values(ISSUP),
  ...ISUSE,
];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Longest first so no token can shadow a longer one sharing its prefix.
const TOKEN_PATTERN = [...ALL_REFLECTION_TOKENS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|');

// A paragraph block is retrieved evidence echoed back, never answer text. An
// unclosed block (truncated output) runs to the end of the text.
const PARAGRAPH_BLOCK = `${escapeRegExp(PARAGRAPH_OPEN)}[\\s\\S]*?(?:${escapeRegExp(PARAGRAPH_CLOSE)}|$)`;

const SCAN = new RegExp(
  `(${PARAGRAPH_BLOCK})|(${TOKEN_PATTERN})|(${escapeRegExp(END_OF_SEQUENCE)})|(${escapeRegExp(PARAGRAPH_CLOSE)})`,
  'g',
);

export interface ParsedReflection {
  /** Reflection tokens in the order they appear. */
  tokens: ReflectionToken[];
  /** The text with reflection tokens, paragraph blocks and `</s>` removed. */
  text: string;
}

export function parseReflectionTokens(text: string): ParsedReflection {
  const tokens: ReflectionToken[] = [];
  const stripped = text.replace(SCAN, (_m, _para: string | undefined, token: string | undefined) => {
    if (token !== undefined) tokens.push(token as ReflectionToken);
    return '';
  });
  return { tokens, text: tidy(stripped) };
}

export function stripReflectionTokens(text: string): string {
  return parseReflectionTokens(text).text;
}

// Removing a token from between two words can leave a doubled space.
function tidy(text: string): string {
  return text.replace(/[ \t]{2,}/g, ' ').trim();
}

export function formatSelfRagPrompt(
  instruction: string,
  passage?: { title: string; text: string } | null,
  previous?: string,
): string {
  let prompt = `### Instruction:\n${instruction}\n\n### Response:\n`;
  // The reference appends the chosen segments before the next evidence block.
  if (previous) prompt += previous;
  if (passage) prompt += `${RETRIEVE.retrieval}${PARAGRAPH_OPEN}${passage.title}\n${passage.text}${PARAGRAPH_CLOSE}`;
  return prompt;
}
