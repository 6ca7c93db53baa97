/** A metric's outcome. `score` is null when it is undefined (e.g. an answer with no statements). */
export interface MetricBase {
  score: number | null;
  /** The models that computed it, e.g. ['writer: Qwen2.5-0.5B', 'nli: nli-deberta-v3-xsmall']. */
  models: string[];
  /** Why the score is null or may be unreliable (unparseable model output). */
  note?: string;
}

export interface StatementVerdict {
  statement: string;
  supported: boolean;
  /** With NLI: the best entailment probability over the context passages. */
  probability?: number;
}

export interface Faithfulness extends MetricBase {
  statements: StatementVerdict[];
  unsupported: string[];
}

export interface AnswerRelevance extends MetricBase {
  questions: string[];
  similarities: number[];
  /** The writer judged the answer evasive or vague (RAGAS library): the score is then 0. */
  noncommittal?: boolean;
}

export interface ContextRelevance extends MetricBase {
  extracted: string[];
  totalSentences: number;
}

export interface RagasReport {
  faithfulness: Faithfulness;
  answerRelevance: AnswerRelevance;
  contextRelevance: ContextRelevance;
}

/** Display names of the models behind the ports, so each metric can say who computed it. */
export interface ModelNames {
  writer: string;
  embedder?: string;
  nli?: string;
  /** CRAG's retrieval evaluator, named in exports. */
  reranker?: string;
}
