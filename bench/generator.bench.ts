// Work per answered question: our generator (one constrained decode per
// candidate carrying relevance, segment, support, utility and the next
// retrieval decision) against the paper's plain algorithm (a full prompt per
// candidate and per critique, and per retrieval decision), on the same tree:
// the real core decode loop, the sample library, and the engine double
// counting tokens with the tiny models' tokenizer rule. A third row also skips
// passages an evaluator judged irrelevant (a user option; it changes the tree).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkText } from '../src/core/chunk';
import { decode } from '../src/core/decode';
import { PAPER_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../src/core/defaults';
import type {
  GeneratedSegment,
  Generator,
  GeneratorCost,
  Passage,
  RetrievalDecisionRequest,
  RetrieveProbs,
  Retriever,
  ScoredPassage,
  SegmentRequest,
  UseProbs,
} from '../src/core/ports';
import type { ChatEngine } from '../src/generator/webllm/engine';
import { EngineGenerator } from '../src/generator/webllm/decoder';
import { formToGrammar, parseForm, type Form } from '../src/generator/form';
import { segmentUserMessage, SYSTEM_DECISION, decisionUserMessage } from '../src/generator/prompts';
import { readSlot, type TokenLogprob } from '../src/generator/webllm/slots';
import { defaultReply, overlap } from '../test/doubles/default-script';
import { ScriptedEngine, type ScriptCall } from '../test/doubles/scripted-engine';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function library(): Passage[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'public/sample/manifest.json'), 'utf8')) as {
    documents: { file: string; title: string }[];
  };
  return manifest.documents.flatMap((d) =>
    chunkText(
      { docId: d.file, title: d.title, text: readFileSync(join(ROOT, 'public/sample', d.file), 'utf8') },
      { targetTokens: 80, overlapTokens: 0 },
    ),
  );
}

function questions(): string[] {
  return readFileSync(join(ROOT, 'public/eval/sample-questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { question: string }).question);
}

/** Lexical retriever: deterministic, so both generators see the same passages. */
function lexicalRetriever(passages: Passage[], minRelevance = 0): Retriever {
  return {
    async retrieve(query, k) {
      return passages
        .map((p): ScoredPassage => ({ ...p, score: overlap(query, `${p.title} ${p.text}`) }))
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
        .slice(0, k)
        .filter((p) => p.score >= minRelevance);
    },
  };
}

const one = (label: string, name: string, alternatives: readonly string[]): Form => [
  { kind: 'literal', text: label },
  { kind: 'slot', name: name as 'rel', alternatives },
];
const GEN_FORM: Form = [
  { kind: 'literal', text: 'Answer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nNext:' },
  { kind: 'slot', name: 'next', alternatives: [' retrieve', ' continue', ' done'] },
];
const REL_FORM = one('Relevance:', 'rel', [' relevant', ' irrelevant']);
const SUP_FORM = one('Support:', 'sup', [' fully', ' partially', ' no']);
const USE_FORM = one('Utility:', 'use', [' 1', ' 2', ' 3', ' 4', ' 5']);

/**
 * The paper's plain algorithm: the retrieval decision, the segment and each
 * critique are separate prompts, each repeating what it needs in full.
 */
class PlainGenerator implements Generator {
  private spent: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  constructor(private readonly engine: ChatEngine) {}
  cost(): GeneratorCost {
    return { ...this.spent };
  }

  private async ask(system: string, user: string, form: Form): Promise<{ text: string; tokens: TokenLogprob[] }> {
    const res = await this.engine.chatCompletion({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      logprobs: true,
      top_logprobs: 5,
      temperature: 1,
      top_p: 1e-5,
      seed: 0,
      response_format: { type: 'grammar', grammar: formToGrammar(form) },
    });
    this.spent.calls++;
    this.spent.promptTokens += res.usage?.prompt_tokens ?? 0;
    this.spent.decodedTokens += res.usage?.completion_tokens ?? 0;
    return {
      text: res.choices[0]?.message.content ?? '',
      tokens: (res.choices[0]?.logprobs?.content ?? []) as TokenLogprob[],
    };
  }

  private async slot(system: string, user: string, form: Form): Promise<number[]> {
    const r = await this.ask(system, user, form);
    const item = form[1] as { name: 'rel'; alternatives: readonly string[] };
    return readSlot(r.tokens, r.text, parseForm(form, r.text).spans[item.name]!, item.alternatives)!;
  }

  async decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs> {
    const p = await this.slot(
      SYSTEM_DECISION,
      decisionUserMessage(req.question, req.previous),
      one('Evidence needed:', 'decision', [' yes', ' no']),
    );
    return { retrieval: p[0]!, noRetrieval: p[1]! };
  }

  async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
    const out: GeneratedSegment[] = [];
    for (const req of reqs) {
      const user = segmentUserMessage(req.question, req.previous, req.passage);
      const gen = await this.ask(
        'Write the next one or two sentences of the answer to the question, using the passage.',
        user,
        GEN_FORM,
      );
      const parsed = parseForm(GEN_FORM, gen.text);
      const text = (parsed.text ?? '').trim();
      const next = readSlot(gen.tokens, gen.text, parsed.spans.next!, [' retrieve', ' continue', ' done'])!;
      const seg: GeneratedSegment = { text, tokenCount: 0, done: next.indexOf(Math.max(...next)) === 2 };
      if (req.passage) {
        const rel = await this.slot('Is the passage relevant to the question?', user, REL_FORM);
        const sup = await this.slot('Is the answer supported by the passage?', `${user}\nSegment: ${text}`, SUP_FORM);
        seg.rel = { relevant: rel[0]!, irrelevant: rel[1]! };
        seg.sup = { full: sup[0]!, partial: sup[1]!, none: sup[2]! };
      }
      seg.use = (await this.slot(
        'How useful is the answer for the question (1 to 5)?',
        `Question: ${req.question}\nSegment: ${text}`,
        USE_FORM,
      )) as UseProbs;
      out.push(seg);
    }
    return out;
  }
}

/**
 * The double's default behaviour reads the question, the answer so far and the
 * passage from the prompt; critique prompts that carry only the segment are
 * mapped back to the passage it was written from, so both algorithms see the
 * same model and build the same tree.
 */
function benchEngine(): ScriptedEngine {
  const bySegment = new Map<string, string>();
  return new ScriptedEngine({
    script: (call: ScriptCall) => {
      const seg = /\nSegment: (.*)$/.exec(call.user)?.[1];
      let user = call.user.replace(/\nSegment: .*$/, '');
      if (seg && !user.includes('\nPassage: ') && bySegment.has(seg)) user = bySegment.get(seg)!;
      if (!user.includes('Answer so far:') && user.includes('\nPassage: '))
        user = user.replace('\nPassage: ', '\nAnswer so far: (nothing yet)\nPassage: ');
      const reply = defaultReply({ ...call, user });
      if (reply.text && user.includes('\nPassage: ')) bySegment.set(reply.text, user);
      return reply;
    },
  });
}

export interface Row {
  name: string;
  cost: GeneratorCost;
  answers: string[];
  candidates: number;
}

export async function measure(): Promise<Row[]> {
  const passages = library();
  const qs = questions();
  const settings = { ...PAPER_DECODE_SETTINGS, maxDepth: 3 };
  const run = async (
    name: string,
    make: (e: ChatEngine) => Generator & { cost(): GeneratorCost },
    minRelevance = 0,
  ): Promise<Row> => {
    const engine = benchEngine();
    const generator = make(engine as unknown as ChatEngine);
    const answers: string[] = [];
    let candidates = 0;
    for (const q of qs) {
      const r = await decode(
        q,
        { generator, retriever: lexicalRetriever(passages, minRelevance) },
        settings,
        DEFAULT_RANK_SETTINGS,
      );
      answers.push(r.ranking.best.map((b) => b.candidate.text).join(' '));
      candidates += r.tree.candidates.length;
    }
    return { name, cost: generator.cost(), answers, candidates };
  };
  return [
    await run('plain (prompt per candidate and per critique)', (e) => new PlainGenerator(e)),
    await run('ours (one pass per candidate)', (e) => new EngineGenerator(e)),
    await run('ours + skip passages judged irrelevant', (e) => new EngineGenerator(e), 0.34),
  ];
}

export async function run(): Promise<void> {
  const rows = await measure();
  const base = rows[0]!;
  const q = questions().length;
  console.log(
    `${q} questions from public/eval/sample-questions.jsonl, sample library, beam 2, 3 passages/step, depth ≤ 3`,
  );
  console.log("tokens counted with the tiny models' tokenizer rule (test/doubles/word-tokenizer.ts)\n");
  console.log(
    'generator                                          prefilled/q  decoded/q  calls/q  candidates  prefill ratio  same tree',
  );
  for (const r of rows) {
    const same = r.answers.every((a, i) => a === base.answers[i]) && r.candidates === base.candidates;
    console.log(
      `${r.name.padEnd(50)} ${(r.cost.promptTokens / q).toFixed(0).padStart(11)}  ${(r.cost.decodedTokens / q).toFixed(0).padStart(9)}  ${(r.cost.calls / q).toFixed(1).padStart(7)}  ${String(r.candidates).padStart(10)}  ${(r.cost.promptTokens / base.cost.promptTokens).toFixed(2).padStart(13)}  ${same ? 'yes' : 'no'}`,
    );
  }
}
