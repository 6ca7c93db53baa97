// A passage as a reader sees it: Markdown's marks of structure (heading hashes, emphasis stars,
// link brackets, code ticks, quote marks) taken out, the words kept. Stored passages keep the
// source as written (it is what was embedded and what citations count characters in); only what
// is shown changes, so nothing here is ever parsed as markup.

const RULES: [RegExp, string][] = [
  [/^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$/gm, '$1'], // # Heading
  [/^[ \t]{0,3}>[ \t]?/gm, ''], // > quote
  [/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1'], // [text](url), ![alt](src)
  [/(\*\*|__)(?=\S)([^*_\n]*?\S)\1/g, '$2'], // **strong**
  [/(^|[\s(])[*_](?=\S)([^*_\n]*?\S)[*_](?=[\s).,;:!?]|$)/gm, '$1$2'], // *emphasis*
  [/`([^`\n]+)`/g, '$1'], // `code`
];

/** The passage's words without Markdown's marks; text without them comes back unchanged. */
export function passageDisplayText(text: string): string {
  return RULES.reduce((t, [re, to]) => t.replace(re, to), text);
}
