import { describe, expect, it } from 'vitest';
import { plainRagAnswer, plainRagInstruction } from '../../../src/core/plain-rag';
import type { ScoredPassage, Writer } from '../../../src/core/ports';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';

const Q = 'When was the tower built?';
const ps: ScoredPassage[] = [
  { ...passage('p1', 'The tower was built from 1887 to 1889.', 'Tower'), score: 0.9 },
  { ...passage('p2', 'The tower is 330 metres tall.', 'Tower'), score: 0.8 },
  { ...passage('p3', 'Paris is the capital of France.', 'Paris'), score: 0.7 },
];

function recordingWriter(reply: string) {
  const seen: { instruction: string; maxTokens?: number }[] = [];
  const writer: Writer = {
    async write(instruction, opts) {
      seen.push({ instruction, ...(opts?.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}) });
      opts?.onText?.(reply.slice(0, 5));
      opts?.onText?.(reply);
      return reply;
    },
  };
  return { writer, seen };
}

describe('plain RAG: the top passages in one prompt, one pass', () => {
  it("puts the retriever's top passages in one writer call, in order, and returns them as the citations", async () => {
    const { writer, seen } = recordingWriter('From 1887 to 1889 [1].');
    const streamed: string[] = [];
    const r = await plainRagAnswer(
      Q,
      { retriever: new FakeRetriever(() => ps), writer },
      { passages: 2, maxTokens: 50 },
      { onText: (t) => streamed.push(t) },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.maxTokens).toBe(50);
    const prompt = seen[0]!.instruction;
    expect(prompt.indexOf(ps[0]!.text)).toBeGreaterThan(-1);
    expect(prompt.indexOf(ps[1]!.text)).toBeGreaterThan(prompt.indexOf(ps[0]!.text));
    expect(prompt).not.toContain(ps[2]!.text);
    expect(prompt.endsWith(`Question: ${Q}`)).toBe(true);
    expect(r.passages.map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(r.text).toBe('From 1887 to 1889 [1].');
    expect(streamed).toEqual(['From ', 'From 1887 to 1889 [1].']);
  });

  it('with 0 passages answers from the question alone, without touching the retriever', async () => {
    const { writer, seen } = recordingWriter('I do not know.');
    const retriever = new FakeRetriever(() => {
      throw new Error('must not retrieve');
    });
    const r = await plainRagAnswer(Q, { retriever, writer }, { passages: 0, maxTokens: 20 });
    expect(r.passages).toEqual([]);
    expect(seen[0]!.instruction).toBe(plainRagInstruction(Q, []));
  });

  it('refuses an empty question and bad budgets with a clear message', async () => {
    const { writer } = recordingWriter('x');
    const retriever = new FakeRetriever(() => ps);
    await expect(plainRagAnswer('  ', { retriever, writer })).rejects.toThrow(/question is empty/);
    await expect(plainRagAnswer(Q, { retriever, writer }, { passages: -1, maxTokens: 10 })).rejects.toThrow(
      /Passages must be/,
    );
    await expect(plainRagAnswer(Q, { retriever, writer }, { passages: 1, maxTokens: 0 })).rejects.toThrow(
      /token budget/,
    );
  });
});
