// Messages above the answer: no WebGPU (with the evidence-only offer), evidence
// mode in use, and the re-run offer after a decode setting changed.
import type { WebGpuCheck } from '../app/browser/webgpu';
import type { NoWebGpuPlan } from '../app/view/no-webgpu-plan';
import type { DecodeKey } from '../app/persist/settings';
import { chosenFromNoWebGpu, evidenceNoticeReason } from '../app/view/evidence-notice';
import { CHOSEN_EVIDENCE_ONLY } from '../app/state/page';

const SETTING_NAMES: Record<DecodeKey, string> = {
  corrective: 'corrective retrieval',
  temperature: 'temperature',
  search: 'how passages are found',
  rerank: 'the re-rank',
  reranker: 'who re-ranks',
  mode: 'retrieval mode',
  threshold: 'threshold δ',
  beamWidth: 'beam width',
  maxDepth: 'max segments',
  passagesPerStep: 'passages per step',
  critiqueSource: 'critique source',
  blend: 'blend',
  relevanceGate: 'the relevance gate',
  stopAtFirstAnswer: 'stop at the first answer',
  maxCandidates: 'the candidate budget',
  'crag.upper': 'the CRAG upper threshold',
  'crag.lower': 'the CRAG lower threshold',
  'crag.stripThreshold': 'the CRAG strip threshold',
  'crag.noEvidence': 'what CRAG does without evidence',
  'crag.externalEnabled': 'the external source switch',
  'crag.stripPool': 'where CRAG keeps its top strips',
  'crag.sentencesPerStrip': 'sentences per CRAG strip',
};

export function Notices(props: {
  webgpu: WebGpuCheck | null;
  /** The models cannot be downloaded from this network: said once, in place of offers that need a download. */
  unreachable: boolean;
  /** The library opened: its documents are searched by their words whatever models are reachable. */
  libraryOpen?: boolean;
  /** What happens without WebGPU for the chosen engine. */
  noWebGpu: NoWebGpuPlan;
  /** Switches the engine to llama.cpp on the CPU. */
  onUseLlama?: () => void;
  evidenceOnly: { reason: string } | null;
  pending: DecodeKey[];
  busy: boolean;
  onEvidenceOnly: (reason: string) => void;
  onLeaveEvidenceOnly: () => void;
  onRerun: () => void;
}) {
  return (
    <div className="notices">
      {props.unreachable && (
        <div className="notice warn" role="status" data-testid="models-unreachable">
          <p>
            <strong>The models cannot be reached from this network.</strong> The embedding model (search by meaning) and
            the language model (written answers) cannot be downloaded.
            {props.libraryOpen && ' Search still works: questions return the passages that match by their words.'}
          </p>
        </div>
      )}
      {props.webgpu && !props.webgpu.ok && !props.evidenceOnly && !props.unreachable && (
        <div className="notice warn" role="status" data-testid="no-webgpu">
          <p>
            <strong>WebGPU cannot be used here.</strong> {props.webgpu.reason} {props.noWebGpu.message}
          </p>
          {props.noWebGpu.offerLlama && props.onUseLlama && (
            <button type="button" data-testid="use-llama" onClick={props.onUseLlama}>
              Use llama.cpp on the CPU
            </button>
          )}{' '}
          <button
            type="button"
            data-testid="use-evidence-only"
            onClick={() =>
              props.onEvidenceOnly(
                chosenFromNoWebGpu(props.noWebGpu.answersOnCpu, props.webgpu?.reason, CHOSEN_EVIDENCE_ONLY),
              )
            }
          >
            Use evidence-only mode
          </button>
        </div>
      )}
      {props.evidenceOnly && (
        <div className="notice" role="status" data-testid="evidence-only">
          <p>
            <strong>Evidence-only mode.</strong> {!props.unreachable && evidenceNoticeReason(props.evidenceOnly.reason)}{' '}
            Questions return the best passages with their relevance instead of a written answer.
          </p>
          {/* Always a way out: without WebGPU llama.cpp writes on the CPU, and a chosen mode lasts until left. */}
          <button type="button" onClick={props.onLeaveEvidenceOnly} data-testid="leave-evidence-only">
            Try writing answers again
          </button>
        </div>
      )}
      {props.pending.length > 0 && !props.busy && (
        <div className="notice" role="status" data-testid="rerun-offer">
          <p>
            You changed {props.pending.map((k) => SETTING_NAMES[k]).join(', ')}. That needs a new answer (weights
            re-rank at once; these do not).
          </p>
          <button type="button" onClick={props.onRerun} data-testid="rerun">
            Re-run the question
          </button>
        </div>
      )}
    </div>
  );
}
