// The labelled real question set's documents (test/fixtures/real/docs.json: Rust book chapters,
// Debian's PDF and HTML manuals) as one library, read and chunked by the app's own code, and
// the rule for a retrieved passage answering a question: it holds a gold answer and the
// question's evidence (or half of it, where a passage boundary cuts the evidence in two).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Passage } from '../../src/core/ports';
import { type PreparedDocument, prepare, readAndPrepare } from '../../src/library/ingest';
import type { ParsedDocument } from '../../src/library/parse';
import { loadPdfJsInNode } from '../../src/library/parse/pdf-node';
import { containsGold, evidenceIn, questionSet, resolveDoc } from '../../test/real/question-set';

export interface RealLibrary {
  passages: Passage[];
  /** docs.json key → the library's document id. */
  docIds: Map<string, string>;
}

/** Every document of the set (the first copy on this machine), as the app reads and chunks it. */
export async function realLibrary(opts: { html?: (source: string) => ParsedDocument } = {}): Promise<RealLibrary> {
  const { docs } = questionSet();
  const passages: Passage[] = [];
  const docIds = new Map<string, string>();
  for (const key of Object.keys(docs).sort()) {
    const path = resolveDoc(key);
    let prepared: PreparedDocument;
    if (opts.html && path.endsWith('.html')) {
      prepared = await prepare(opts.html(readFileSync(path, 'utf8')));
    } else {
      const r = await readAndPrepare(
        { name: basename(path), bytes: new Uint8Array(readFileSync(path)) },
        { pdf: loadPdfJsInNode },
      );
      if (!r.ok) throw new Error(`${path} was refused: ${r.reason}`);
      prepared = r.doc;
    }
    docIds.set(key, prepared.id);
    passages.push(...prepared.passages);
  }
  return { passages, docIds };
}

/** What a retrieved passage must hold to answer a record of the set. */
export interface Answerable {
  answers: string[];
  evidence: string;
}

/** True when the passage holds a gold answer and the evidence, or either half of the evidence's words. */
export function answers(passageText: string, r: Answerable): boolean {
  if (!containsGold(passageText, r.answers)) return false;
  if (evidenceIn(passageText, r.evidence)) return true;
  const words = r.evidence.trim().split(/\s+/);
  const half = Math.ceil(words.length / 2);
  return (
    evidenceIn(passageText, words.slice(0, half).join(' ')) || evidenceIn(passageText, words.slice(half).join(' '))
  );
}

/** 1-based rank of the first passage that answers, or 0 when none of `ranked` does. */
export function firstAnswering(ranked: readonly Passage[], r: Answerable): number {
  const i = ranked.findIndex((p) => answers(p.text, r));
  return i + 1;
}
