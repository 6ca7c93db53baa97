// The notice for models this network cannot reach says that search still works only where the
// library opened: it speaks of what is there, not of what should be.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Notices } from '../../../src/ui/Notices';

const render = (libraryOpen: boolean) => {
  const noop = () => undefined;
  return renderToStaticMarkup(
    <Notices
      webgpu={null}
      unreachable
      libraryOpen={libraryOpen}
      noWebGpu={{ message: '', offerLlama: false, answersOnCpu: true }}
      evidenceOnly={null}
      pending={[]}
      busy={false}
      onEvidenceOnly={noop}
      onLeaveEvidenceOnly={noop}
      onRerun={noop}
    />,
  );
};

describe('the models-unreachable notice', () => {
  it('promises search by words only when the library opened', () => {
    expect(render(true)).toMatch(/cannot be reached.*Search still works/s);
    expect(render(false)).toMatch(/cannot be reached/);
    expect(render(false)).not.toMatch(/Search still works/);
  });
});
