import { describe, expect, it } from 'vitest';
import { helperContent, MAX_HELPER_CONTENT_BYTES } from './helper-content.js';

describe('helperContent', () => {
  it('keeps null, false, 0 and "" as present values and omits undefined', () => {
    expect(helperContent(null, 'input')).toEqual({ json: 'null' });
    expect(helperContent(false, 'input')).toEqual({ json: 'false' });
    expect(helperContent(0, 'input')).toEqual({ json: '0' });
    expect(helperContent('', 'input')).toEqual({ json: '""' });
    expect(helperContent(undefined, 'input')).toEqual({ omitted: true });
  });

  it('accepts JSON of exactly 256 KiB and refuses one byte more, counting UTF-8 bytes', () => {
    const fits = 'x'.repeat(MAX_HELPER_CONTENT_BYTES - 2);
    expect(helperContent(fits, 'output')).toEqual({ json: JSON.stringify(fits) });
    expect(helperContent(`${fits}x`, 'output')).toEqual({
      problem: 'output was not recorded: its JSON is over 256 KiB',
    });
    const wide = 'é'.repeat(MAX_HELPER_CONTENT_BYTES / 2);
    expect(helperContent(wide, 'output')).toEqual({
      problem: 'output was not recorded: its JSON is over 256 KiB',
    });
  });

  it('refuses values that do not serialize as JSON, without echoing them', () => {
    const cyclic: Record<string, unknown> = { secret: 'value' };
    cyclic.self = cyclic;
    expect(helperContent(cyclic, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON',
    });
    expect(helperContent(() => 1, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON',
    });
    expect(helperContent(10n, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON',
    });
  });
});
