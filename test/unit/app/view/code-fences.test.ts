import { describe, expect, it } from 'vitest';
import { fencedParts } from '../../../../src/app/view/code-fences';

describe('an answer’s code fences', () => {
  it('split the text into prose and code, without the backticks', () => {
    expect(fencedParts('Use a map:\n```rust\nlet mut m = HashMap::new();\n```\nThen insert.')).toEqual([
      { code: false, text: 'Use a map:\n' },
      { code: true, text: 'let mut m = HashMap::new();', lang: 'rust' },
      { code: false, text: '\nThen insert.' },
    ]);
  });

  it('show an unclosed fence (still streaming) as code to the end', () => {
    expect(fencedParts('Like this: ```\nfn main() {')).toEqual([
      { code: false, text: 'Like this: ' },
      { code: true, text: 'fn main() {' },
    ]);
    expect(fencedParts('```')).toEqual([{ code: true, text: '' }]);
  });

  it('leave text without fences whole, markup and all (it is shown as text)', () => {
    expect(fencedParts('a <b>b</b> `c`')).toEqual([{ code: false, text: 'a <b>b</b> `c`' }]);
    expect(fencedParts('')).toEqual([]);
  });
});
