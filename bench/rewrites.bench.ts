// A follow-up's rewrite alone (issue 46): each of the 28 labelled follow-ups (test/fixtures/real/
// threads.json) rewritten by the real model on native llama-server with the page's prompt
// (src/core/conversation/rewrite.ts), after its first question and that question's answer as the
// follow-ups bench logged it (or no answer, where the log lacks one). Each rewrite is judged by the
// page's own rule (`cleanRewrite`: used, or why not), and by whether it brings in a word of the
// labelled standalone form that the follow-up lacks. One short call a follow-up: minutes, not hours.
//
//   LLAMA_SERVER=/path/to/llama-server npm run bench -- rewrites
//   ANSWERS_MODEL=qwen15; REWRITES_ANSWERS=<follow-ups log> (default test-output/answers/follow-ups-<model>.jsonl)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOW_TO_FETCH, realModelsDir } from '../scripts/real-models/catalogue';
import { cleanRewrite, newWords, rewritePrompt } from '../src/core/conversation';
import { WllamaGenerator } from '../src/generator/wllama/decoder';
import { OUTPUT_DIR } from '../test/browser/harness';
import { questionSet } from '../test/real/question-set';
import { startNativeServer } from './answers/llama-server-engine';
import { MODELS, type ModelKey } from './answers/session';

export async function run(): Promise<void> {
  const key = (process.env.ANSWERS_MODEL ?? 'qwen05') as ModelKey;
  const model = MODELS[key];
  const path = join(realModelsDir(), model.file);
  const binary = process.env.LLAMA_SERVER;
  if (!existsSync(path) || !binary || !existsSync(binary)) {
    console.log(`SKIPPED: needs ${path} (${HOW_TO_FETCH}) and LLAMA_SERVER set to a llama-server binary.`);
    return;
  }
  const log = process.env.REWRITES_ANSWERS ?? join(OUTPUT_DIR, 'answers', `follow-ups-${key}.jsonl`);
  const firstAnswers = new Map<string, string>();
  if (existsSync(log))
    for (const line of readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.trim())) {
      const r = JSON.parse(line) as { id: string; firstAnswer?: string };
      if (r.firstAnswer) firstAnswers.set(r.id, r.firstAnswer);
    }
  const server = await startNativeServer({ model: path, threads: Number(process.env.ANSWERS_THREADS ?? 2), binary });
  const gen = new WllamaGenerator(server.engine, { nProbs: 20 });
  const fus = questionSet().followUps;
  const reasons = new Map<string, number>();
  let used = 0;
  let subject = 0;
  try {
    console.log(`${fus.length} follow-ups on ${model.name}; first answers from ${log}: ${firstAnswers.size}`);
    for (const f of fus) {
      const req = rewritePrompt([{ question: f.first, answer: firstAnswers.get(f.id) ?? '' }], f.followUp)!;
      const out = await gen.complete(req);
      const c = cleanRewrite(out.text, f.followUp, [f.first]);
      const wanted = newWords(f.standalone, f.followUp);
      const brought = c.usedRewrite ? newWords(c.query, f.followUp) : [];
      const hit = wanted.some((w) => brought.some((b) => b.slice(0, 4) === w.slice(0, 4)));
      if (c.usedRewrite) used++;
      if (hit) subject++;
      if (c.reason) reasons.set(c.reason, (reasons.get(c.reason) ?? 0) + 1);
      console.log(
        `${f.id} ${c.usedRewrite ? 'used' : 'not used'}${hit ? ', subject' : ''}: ${f.followUp} → ${out.text.split('\n')[0]}`,
      );
    }
  } finally {
    await server.close();
  }
  console.log(`\n| model | rewrite used | brings the standalone form's subject |\n|---|---:|---:|`);
  console.log(`| ${model.name} | ${used}/${fus.length} | ${subject}/${fus.length} |`);
  for (const [why, n] of reasons) console.log(`not used, ${why}: ${n}`);
}
