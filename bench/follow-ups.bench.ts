// Follow-ups with a real model (issue 46): each of the labelled follow-ups (test/fixtures/real/
// threads.json) asked in its thread, after its first question answered by the same model, as the
// page asks it (bench/answers/follow-up.ts: the model's rewrite or the joined questions, the earlier
// questions in the prompts, the earlier answers to the guard), and the same question in its
// standalone form in a fresh thread. The goal: gold in the follow-up's answer at least 0.9× the
// standalone rate, and no answer repeating the one before it (measured apart from the guard: a run of
// eight words or more of the earlier answer).
//
//   LLAMA_SERVER=/path/to/llama-server npm run bench -- follow-ups
//   ANSWERS_MODEL=qwen15 FOLLOWUPS_LIMIT=10 ANSWERS_RESUME=1 (as the answers bench)
//   FOLLOWUPS_REUSE=<an earlier log>: its first answers and standalone answers are taken, not written
//   again (neither depends on how a follow-up is asked in its thread: a change there is measured in a
//   third of the time). The same model and settings as that log's, or the comparison means nothing.
//
// Every record is appended to test-output/answers/follow-ups-<model>.jsonl.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containsGoldBeyondQuestion, questionSet } from '../test/real/question-set';
import { OUTPUT_DIR } from '../test/browser/harness';
import { answerInThread, keptTurn } from './answers/follow-up';
import { repeatsRun } from '../test/real/repeats';
import { answer } from './answers/rows';
import { openAnswerSession } from './answers/session';
import { errorMessage } from '../src/core/errors';

interface FollowUpRecord {
  model: string;
  id: string;
  first: string;
  firstAnswer: string;
  followUp: string;
  rewrite: string | null;
  searched: string;
  note?: string;
  thread: string;
  threadGold: boolean;
  /** The follow-up's answer repeats the first answer (eight words in a row or more). */
  repeats: boolean;
  /** Candidates the guard withheld as a copy of an earlier turn. */
  withheldEarlier: number;
  threadNoAnswer: boolean;
  standalone: string;
  standaloneGold: boolean;
}

export async function run(): Promise<void> {
  const session = await openAnswerSession();
  if (!session) return;
  const set = questionSet().followUps;
  const limit = Math.min(set.length, Number(process.env.FOLLOWUPS_LIMIT ?? set.length));
  const asked = Array.from({ length: limit }, (_, i) => set[Math.floor((i * set.length) / limit)]!);
  mkdirSync(join(OUTPUT_DIR, 'answers'), { recursive: true });
  const log = join(OUTPUT_DIR, 'answers', `follow-ups-${session.key}.jsonl`);
  const records: FollowUpRecord[] =
    process.env.ANSWERS_RESUME === '1' && existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as FollowUpRecord)
          .filter((r) => r.model === session.modelName && 'thread' in r)
      : [];
  const reuse = process.env.FOLLOWUPS_REUSE;
  const earlier = new Map(
    (reuse ? readFileSync(reuse, 'utf8').split('\n') : [])
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as FollowUpRecord)
      .filter((r) => r.model === session.modelName && 'thread' in r)
      .map((r) => [r.id, r]),
  );
  if (reuse) console.log(`first and standalone answers of ${earlier.size} follow-ups taken from ${reuse}`);
  const complete = session.generator.complete.bind(session.generator);
  console.log(`${asked.length} follow-ups on ${session.modelName} (${session.threads} threads); log ${log}`);
  try {
    for (const fu of asked) {
      if (records.some((r) => r.id === fu.id)) continue;
      try {
        const was = earlier.get(fu.id);
        const first = was ? { text: was.firstAnswer } : await answer('adaptive', fu.first, session);
        const path = [keptTurn('t1', fu.first, first.text, null)];
        const { form, answered } = await answerInThread(path, fu.followUp, { ...session, complete });
        const alone = was ? null : await answer('adaptive', fu.standalone, session);
        const record: FollowUpRecord = {
          model: session.modelName,
          id: fu.id,
          first: fu.first,
          firstAnswer: first.text,
          followUp: fu.followUp,
          rewrite: form.rewrite,
          searched: form.query,
          ...(form.note ? { note: form.note } : {}),
          thread: answered.text,
          // Outside the words of what was asked: the follow-up and its first question.
          threadGold:
            !answered.noAnswer && containsGoldBeyondQuestion(answered.text, fu.answers, `${fu.first} ${fu.followUp}`),
          repeats: !answered.noAnswer && repeatsRun(answered.text, first.text),
          withheldEarlier: answered.withheld.filter((w) => w === 'earlier-answer').length,
          threadNoAnswer: answered.noAnswer,
          standalone: alone ? alone.text : was!.standalone,
          standaloneGold: alone
            ? !alone.noAnswer && containsGoldBeyondQuestion(alone.text, fu.answers, fu.standalone)
            : was!.standaloneGold,
        };
        records.push(record);
        appendFileSync(log, `${JSON.stringify(record)}\n`);
        console.log(
          `${fu.id}: thread ${record.threadGold ? 'GOLD' : '    '} standalone ${record.standaloneGold ? 'GOLD' : '    '} searched "${form.query}" | ${answered.noAnswer ? '(no answer)' : answered.text.slice(0, 100)}`,
        );
      } catch (e) {
        console.log(
          `${fu.id}: ERROR ${errorMessage(e)} ${(e as { detail?: string }).detail ?? ''} ${String((e as { cause?: unknown }).cause ?? '')}`,
        );
      }
    }
  } finally {
    await session.close();
  }
  printFollowUps(
    records.filter((r) => asked.some((fu) => fu.id === r.id)),
    session.criticName,
  );
}

function printFollowUps(rs: FollowUpRecord[], critic: string): void {
  const n = rs.length;
  const count = (f: (r: FollowUpRecord) => boolean) => rs.filter(f).length;
  const thread = count((r) => r.threadGold);
  const alone = count((r) => r.standaloneGold);
  console.log(`\n${rs[0]?.model ?? '?'}, the default (critic: ${critic}), ${n} follow-ups\n`);
  console.log(
    '| asked | gold in answer | rewrite used | answer repeats the earlier one | no answer | guard withheld a copy |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    `| in its thread | ${thread}/${n} | ${count((r) => r.rewrite !== null)}/${n} | ${count((r) => r.repeats)} | ${count((r) => r.threadNoAnswer)} | ${rs.reduce((s, r) => s + r.withheldEarlier, 0)} |`,
  );
  console.log(`| standalone form, fresh thread | ${alone}/${n} | – | – | – | – |`);
  console.log(`\nthread / standalone: ${alone ? (thread / alone).toFixed(2) : '–'} (goal ≥ 0.90)`);
}
