// Reads a GGUF file's vocabulary from its header (the metadata comes before
// the tensors), so slot alternatives can be written as token ids in the
// grammar: wllama has no tokenize call.

export interface Vocab {
  model: string;
  tokens: string[];
}

const SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** What the header says about how llama.cpp should run the model (see load-fixes.ts). */
export interface GgufTraits {
  architecture: string | null;
  /** `<arch>.attention.sliding_window` is set: some layers attend to a window only (Gemma 2 and 3). */
  slidingWindow: boolean;
  /** `tokenizer.chat_template` is set. */
  chatTemplate: boolean;
}

export interface GgufHeader {
  vocab: Vocab | null;
  traits: GgufTraits;
}

export async function readVocab(blob: Blob): Promise<Vocab | null> {
  return (await readHeader(blob))?.vocab ?? null;
}

/** The header (vocabulary and traits), reading more of the file until it fits; null when it is not a GGUF file. */
export async function readHeader(blob: Blob): Promise<GgufHeader | null> {
  let window = 1 << 22;
  for (;;) {
    const buf = new Uint8Array(await blob.slice(0, Math.min(window, blob.size)).arrayBuffer());
    try {
      return parse(buf);
    } catch (e) {
      if (!(e instanceof RangeError) || window >= blob.size) return null;
      window *= 4; // the header did not fit: read more
    }
  }
}

function parse(buf: Uint8Array): GgufHeader | null {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const text = new TextDecoder();
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    if (at + n > buf.length) throw new RangeError('past the window');
    at += n;
    return text.decode(buf.subarray(at - n, at));
  };
  if (text.decode(buf.subarray(0, 4)) !== 'GGUF') return null;
  at = 4;
  u32(); // version
  u64(); // tensor count
  const kvs = u64();
  let model = '';
  let tokens: string[] | null = null;
  const traits: GgufTraits = { architecture: null, slidingWindow: false, chatTemplate: false };
  const skip = (type: number): void => {
    if (type === 8) str();
    else if (type === 9) {
      const inner = u32();
      const n = u64();
      if (inner === 8) for (let i = 0; i < n; i++) str();
      else at += n * SIZES[inner]!;
    } else at += SIZES[type]!;
    if (at > buf.length) throw new RangeError('past the window');
  };
  for (let k = 0; k < kvs; k++) {
    const key = str();
    const type = u32();
    if (key === 'tokenizer.ggml.model' && type === 8) model = str();
    else if (key === 'general.architecture' && type === 8) traits.architecture = str();
    else if (key === 'tokenizer.ggml.tokens' && type === 9) {
      u32();
      const n = u64();
      tokens = new Array<string>(n);
      for (let i = 0; i < n; i++) tokens[i] = str();
    } else {
      if (key === 'tokenizer.chat_template') traits.chatTemplate = true;
      if (key.endsWith('.attention.sliding_window')) traits.slidingWindow = true;
      skip(type);
    }
  }
  return { vocab: tokens ? { model, tokens } : null, traits };
}

const BYTE_CHARS = (() => {
  const keep = new Set<number>();
  for (let b = 0x21; b <= 0x7e; b++) keep.add(b);
  for (let b = 0xa1; b <= 0xac; b++) keep.add(b);
  for (let b = 0xae; b <= 0xff; b++) keep.add(b);
  let n = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(keep.has(b) ? b : 256 + n++));
})();

/** The text spelled in the vocabulary's own alphabet (GPT-2 byte characters, or SentencePiece's ▁ for spaces). */
function spell(vocab: Vocab, textIn: string): string {
  if (vocab.model === 'gpt2') return [...new TextEncoder().encode(textIn)].map((b) => BYTE_CHARS[b]).join('');
  return textIn.replace(/ /g, '\u2581');
}

/** Token ids spelling each text by longest match (a valid tokenisation; one token when the vocabulary has the word), or null. */
export function tokenIds(vocab: Vocab, texts: readonly string[]): (number[] | null)[] {
  const index = new Map<string, number>();
  vocab.tokens.forEach((t, i) => {
    if (!index.has(t)) index.set(t, i);
  });
  const longest = vocab.tokens.reduce((m, t) => Math.max(m, t.length), 0);
  return texts.map((t) => {
    const whole = index.get(t); // special tokens are stored as themselves
    if (whole !== undefined) return [whole];
    const s = spell(vocab, t);
    const ids: number[] = [];
    for (let i = 0; i < s.length; ) {
      let found = -1;
      let len = Math.min(longest, s.length - i);
      for (; len > 0; len--) {
        const id = index.get(s.slice(i, i + len));
        if (id !== undefined) {
          found = id;
          break;
        }
      }
      if (found < 0) return null;
      ids.push(found);
      i += len;
    }
    return ids;
  });
}
