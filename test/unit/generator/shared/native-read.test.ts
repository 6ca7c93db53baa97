// One native Self-RAG model's output, sent through both engine drivers: web-llm reports tokens by
// string with the stop word's entry kept; llama.cpp reports them by id, renders reflection tokens
// as empty text and drops the stop word's log-probs (the driver reads that position again). The
// scores must not depend on the engine, and must follow the paper's order of groups.
import { describe, expect, it } from 'vitest';
import type { GeneratedSegment, Passage, SegmentRequest } from '../../../../src/core/ports';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { EngineGenerator } from '../../../../src/generator/webllm/decoder';
import type { TokenLogprob } from '../../../../src/generator/webllm/slots';
import { type WllamaEngine, WllamaGenerator } from '../../../../src/generator/wllama/decoder';
import type { WllamaCompletionResponse, WllamaTokenLogprob } from '../../../../src/generator/wllama/protocol';
import { REFLECTION_STRINGS } from '../../../../src/generator/shared/native-read';

/** A written token and the probabilities of the alternatives the engine reports beside it (itself included). */
type Step = { token: string; p?: Record<string, number> };
/** What the model wrote for one segment and how it ended: its end-of-text token, or a retrieval decision. */
interface Output {
  steps: Step[];
  end: { eos: true } | { decision: Step };
}

const EOS = '</s>';
const words = (text: string): Step[] => text.split(/(?= )/).map((token) => ({ token, p: { [token]: 0.9 } }));

/** The web-llm engine's reply: every token by its string, the stop word's entry kept, its text cut. */
function webllmEngine(segment: Output, decision: Step): ChatEngine {
  const entry = (s: Step): TokenLogprob => {
    const p = s.p ?? { [s.token]: 1 };
    const top = Object.entries(p).map(([token, q]) => ({ token, logprob: Math.log(q) }));
    return { token: s.token, logprob: Math.log(p[s.token] ?? 1), top_logprobs: top };
  };
  const reply = (steps: Step[], ending: Step | null) => ({
    choices: [
      {
        text: steps.map((s) => s.token).join(''),
        finish_reason: 'stop',
        logprobs: { content: [...steps, ...(ending ? [ending] : [])].map(entry) },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: steps.length },
  });
  return {
    completion: async (req: { stop?: unknown }) =>
      req.stop
        ? reply(segment.steps, 'eos' in segment.end ? { token: EOS } : segment.end.decision)
        : reply([decision], null),
    chatCompletion: async () => {
      throw new Error('not asked');
    },
    interruptGenerate: () => {},
  } as unknown as ChatEngine;
}

/** The llama.cpp engine's reply: tokens by id, reflection tokens rendered as '', a stop word's log-probs dropped. */
function wllamaEngine(segment: Output, decision: Step): WllamaEngine {
  const ids = new Map<string, number>();
  const id = (token: string) => ids.get(token) ?? ids.set(token, ids.size + 7).get(token)!;
  const shown = (token: string) => (REFLECTION_STRINGS.includes(token) || token === EOS ? '' : token);
  const entry = (s: Step): WllamaTokenLogprob => {
    const p = s.p ?? { [s.token]: 1 };
    const top = Object.entries(p).map(([t, q]) => ({ id: id(t), token: shown(t), bytes: null, logprob: Math.log(q) }));
    return {
      id: id(s.token),
      token: shown(s.token),
      bytes: null,
      logprob: Math.log(p[s.token] ?? 1),
      top_logprobs: top,
    };
  };
  const reply = (steps: Step[]): WllamaCompletionResponse => ({
    choices: [
      {
        text: steps.map((s) => shown(s.token)).join(''),
        finish_reason: 'stop',
        logprobs: { content: steps.map(entry) },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: steps.length },
  });
  let probe: string | undefined;
  return {
    tokenIds: async (texts) => texts.map((t) => (REFLECTION_STRINGS.includes(t) ? [id(t)] : null)),
    complete: async (_id, req) => {
      const prompt = req.prompt as string;
      if (req.stop) {
        const out = reply([...segment.steps, ...('eos' in segment.end ? [{ token: EOS }] : [])]);
        probe = prompt + out.choices[0]!.text;
        return out;
      }
      // One more token where the reply stopped: the position the stop word was written at.
      if (prompt === probe) return reply(['decision' in segment.end ? segment.end.decision : { token: EOS }]);
      return reply([decision]);
    },
    chatStream: async () => {
      throw new Error('not asked');
    },
    abort: () => {},
  };
}

const passage: Passage = { id: 'd#0', docId: 'd', title: 'Lyon', text: 'Lyon is a city in France.', index: 0 };
const req = (over: Partial<SegmentRequest> = {}): SegmentRequest => ({
  question: 'Where is Lyon?',
  previous: [],
  passage,
  ...over,
});
const firstDecision: Step = {
  token: '[Retrieval]',
  p: { '[Retrieval]': 0.55, '[No Retrieval]': 0.35, '[Continue to Use Evidence]': 0.05 },
};

/** The same output through both drivers: the segment, then the next decision (remembered or asked). */
async function both(out: Output, r: SegmentRequest = req()) {
  const run = async (gen: EngineGenerator | WllamaGenerator) => {
    const [segment] = await gen.generateSegments([r]);
    const first = await gen.decideRetrieval({ question: r.question, previous: [] });
    const next = await gen.decideRetrieval({ question: r.question, previous: [...r.previous, segment!.text] });
    return { segment: segment!, first, next };
  };
  const webllm = await run(new EngineGenerator(webllmEngine(out, firstDecision), { native: true }));
  const wllama = await run(new WllamaGenerator(wllamaEngine(out, firstDecision), { native: true }));
  return { webllm, wllama };
}

const relevant: Step = { token: '[Relevant]', p: { '[Relevant]': 0.8, '[Irrelevant]': 0.2 } };
const irrelevant: Step = { token: '[Irrelevant]', p: { '[Irrelevant]': 0.7, '[Relevant]': 0.3 } };
const full: Step = {
  token: '[Fully supported]',
  p: { '[Fully supported]': 0.6, '[Partially supported]': 0.3, '[No support / Contradictory]': 0.1 },
};
const use = (k: number): Step => ({
  token: `[Utility:${k}]`,
  p: { [`[Utility:${k}]`]: 0.5, [k === 4 ? '[Utility:3]' : '[Utility:4]']: 0.3, '[Utility:1]': 0.2 },
});
const nextRetrieval: Step = {
  token: '[Retrieval]',
  p: { '[Retrieval]': 0.7, '[No Retrieval]': 0.2, '[Continue to Use Evidence]': 0.1 },
};

const close = (got: readonly number[] | undefined, want: readonly number[]) => {
  expect(got).toBeDefined();
  got!.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 9));
};
const scores = (s: GeneratedSegment) => [s.rel?.relevant, s.sup?.full, s.sup?.partial, s.use?.[4], s.use?.[3]];

describe("a native Self-RAG model's reflection tokens, read once for both engines", () => {
  it('the last segment of an answer: relevance, the segment, support, then utility once', async () => {
    const { webllm, wllama } = await both({
      steps: [relevant, ...words('Lyon is in France.'), full, use(5)],
      end: { eos: true },
    });
    expect(wllama).toEqual(webllm);
    const s = webllm.segment;
    expect(s.text).toBe('Lyon is in France.');
    close([s.rel!.relevant, s.rel!.irrelevant], [0.8, 0.2]);
    close([s.sup!.full, s.sup!.partial, s.sup!.none], [0.6, 0.3, 0.1]);
    close(s.use, [0.2, 0, 0, 0.3, 0.5]);
    expect(s.done).toBe(true);
    expect(s.tokenCount).toBe(4);
    expect(s.logprob).toBeCloseTo(4 * Math.log(0.9), 9);
    expect(s.problem).toBeUndefined();
    close([webllm.first.retrieval, webllm.first.noRetrieval], [0.55, 0.35]);
  });

  it('a middle segment: support, then the next decision instead of utility', async () => {
    const { webllm, wllama } = await both({
      steps: [relevant, ...words('Lyon is in France.'), full],
      end: { decision: nextRetrieval },
    });
    expect(wllama).toEqual(webllm);
    expect(webllm.segment.done).toBe(false);
    expect(webllm.segment.use).toBeUndefined();
    expect(webllm.segment.problem).toBeUndefined();
    close([webllm.next.retrieval, webllm.next.noRetrieval, webllm.next.continueEvidence!], [0.7, 0.2, 0.1]);
  });

  it('no support is expected after [Irrelevant]', async () => {
    const { webllm, wllama } = await both({
      steps: [irrelevant, ...words('Lyon is in France.'), use(2)],
      end: { eos: true },
    });
    expect(wllama).toEqual(webllm);
    expect(webllm.segment.sup).toBeUndefined();
    expect(webllm.segment.problem).toBeUndefined();
    close([webllm.segment.rel!.relevant], [0.3]);
  });

  it('a segment without a passage: neither relevance nor support, the decision ends it', async () => {
    const { webllm, wllama } = await both(
      { steps: words('Lyon is in France.'), end: { decision: nextRetrieval } },
      req({ passage: null }),
    );
    expect(wllama).toEqual(webllm);
    expect(scores(webllm.segment)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(webllm.segment.problem).toBeUndefined();
    expect(webllm.segment.done).toBe(false);
  });

  it('marks the same missing groups on both: support after [Relevant], utility at the end', async () => {
    const { webllm, wllama } = await both({ steps: [relevant, ...words('Lyon is in France.')], end: { eos: true } });
    expect(wllama).toEqual(webllm);
    expect(webllm.segment.problem).toMatch(/missing support token; missing utility token/);
    expect(webllm.segment.done).toBe(true);
  });

  it('reads a utility token written before the next decision, as the reference reads it wherever it appears', async () => {
    const { webllm, wllama } = await both({
      steps: [relevant, ...words('Lyon is in France.'), full, use(4)],
      end: { decision: nextRetrieval },
    });
    expect(wllama).toEqual(webllm);
    expect(scores(webllm.segment)).toEqual([
      expect.closeTo(0.8, 9),
      expect.closeTo(0.6, 9),
      expect.closeTo(0.3, 9),
      0,
      expect.closeTo(0.5, 9),
    ]);
    expect(webllm.segment.done).toBe(false);
  });

  it("a segment that repeats an earlier turn's answer is withheld on both engines (issue 46)", async () => {
    const out: Output = {
      steps: [relevant, ...words('Lyon is a city in France.'), full],
      end: { decision: nextRetrieval },
    };
    const { webllm, wllama } = await both(out, req({ earlier: ['Lyon is a city in France.'] }));
    expect(wllama).toEqual(webllm);
    expect(webllm.segment.withheld?.reason).toBe('earlier-answer');
    expect(webllm.segment.done).toBe(true);
    const other = await both(out, req({ earlier: ['Paris is the capital of France.'] }));
    expect(other.webllm.segment.withheld).toBeUndefined();
    expect(other.wllama.segment.withheld).toBeUndefined();
  });
});
