// The seam where the generator worker gets its engine. The e2e test build
// aliases this module to test/doubles/engine-factory.ts (vite.config.ts, mode
// 'e2e' only), so tests run the real worker and web-llm's real message protocol
// around a scripted engine; the shipped build always gets web-llm's MLCEngine.
import { MLCEngine } from '@mlc-ai/web-llm';

export function createEngine(): MLCEngine {
  return new MLCEngine();
}
