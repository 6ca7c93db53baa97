import { describe, expect, it } from 'vitest';
import { passageDisplayText } from '../../../../src/app/view/passage-text';

describe('a passage as a reader sees it', () => {
  it('takes out Markdown’s marks and keeps the words', () => {
    expect(
      passageDisplayText(
        '# Baking Sourdough at Home\n\n## Rising ##\n> Let it rise **4 to 6 hours**, see [the guide](https://x.test/g) and `levain`.\nA *warm* kitchen helps.',
      ),
    ).toBe(
      'Baking Sourdough at Home\n\nRising\nLet it rise 4 to 6 hours, see the guide and levain.\nA warm kitchen helps.',
    );
  });

  it('leaves text without Markdown as it is', () => {
    const plain = 'Entry #3: 2 * 3 = 6, and snake_case_names stay; C# is a language.\nA line ends with #';
    expect(passageDisplayText(plain)).toBe(plain);
  });
});
