// The evidence-only notice repeats why no answer is written. That reason is a model error with
// its advice, written for the moment before the switch ("…, or use evidence-only mode."): in the
// mode itself that advice contradicts the notice, and a build command means nothing to a visitor.

/** The reason without advice to use evidence-only mode and without sentences that quote a command. */
export function evidenceNoticeReason(reason: string): string {
  return reason
    .replace(/[,;]?\s*(?:or\s+)?use evidence-only mode(?=[.!]|\s*$)/gi, '')
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !/\bnpm\s+run\b|`/.test(s))
    .join(' ')
    .trim();
}

/**
 * Why the page is in evidence-only mode when the visitor picks it from the no-WebGPU notice. Where
 * llama.cpp writes on the CPU instead, WebGPU is no reason: the mode is their choice, and its notice
 * says that (it once gave the WebGPU reason while llama.cpp had been answering).
 */
export function chosenFromNoWebGpu(answersOnCpu: boolean, webgpuReason: string | undefined, chosen: string): string {
  return answersOnCpu ? chosen : (webgpuReason ?? 'WebGPU is not available.');
}
