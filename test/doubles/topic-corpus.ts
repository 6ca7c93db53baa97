// A small corpus for the sharded-corpus tests: 60 documents of 10 passages on 12 topics, each
// passage with a unique word (item<d>x<p>) and the hashed bag-of-words embedding of its text.
import { embedText } from './hash-embedder';

export const TOPICS = [
  'harbour',
  'glacier',
  'orchard',
  'comet',
  'violin',
  'desert',
  'reef',
  'volcano',
  'library',
  'bridge',
  'meadow',
  'canyon',
];

export interface TopicRow {
  id: string;
  doc_id: string;
  title: string;
  text: string;
  index: number;
  embedding: number[];
  list?: number;
}

export function topicCorpus(dim: number): TopicRow[] {
  const rows: TopicRow[] = [];
  for (let d = 0; d < 60; d++) {
    const topic = TOPICS[d % TOPICS.length]!;
    for (let p = 0; p < 10; p++) {
      const text = `Notes on the ${topic} number ${d}: passage ${p} describes the ${topic} and item${d}x${p} in plain words.`;
      rows.push({
        id: `doc${d}#${p}`,
        doc_id: `doc${d}`,
        title: `${topic} ${d}`,
        text,
        index: p,
        embedding: [...embedText(`${topic} ${d}\n${text}`, dim)],
      });
    }
  }
  return rows;
}
