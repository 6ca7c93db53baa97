import { describe, expect, it } from 'vitest';
import { evidenceNoticeReason } from '../../../../src/app/view/evidence-notice';

describe('the evidence-only notice’s reason', () => {
  it('drops the advice to use the mode it is in, and any build command', () => {
    expect(
      evidenceNoticeReason(
        'No answer can be written: The language model is not loaded. Load a model first, or use evidence-only mode. Showing the best passages instead.',
      ),
    ).toBe(
      'No answer can be written: The language model is not loaded. Load a model first. Showing the best passages instead.',
    );
    expect(
      evidenceNoticeReason(
        'The model files could not be downloaded. Check the connection and retry, serve a local model pack (npm run models -- --generator <id>), or use evidence-only mode.',
      ),
    ).toBe('The model files could not be downloaded.');
    expect(
      evidenceNoticeReason(
        "The site's model pack does not include X. Run `npm run models -- --generator x` before building.",
      ),
    ).toBe("The site's model pack does not include X.");
    expect(evidenceNoticeReason('WebGPU is not available.')).toBe('WebGPU is not available.');
  });
});
