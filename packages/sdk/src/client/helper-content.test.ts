import { describe, expect, it } from 'vitest';
import { Attachment } from '../media/attachment/attachment.js';
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

  it('refuses values that do not serialize as JSON, saying why without echoing them', () => {
    const cyclic: Record<string, unknown> = { secret: 'value' };
    cyclic.self = cyclic;
    expect(helperContent(cyclic, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON (it holds a circular reference)',
    });
    expect(helperContent(() => 1, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON (it is a function)',
    });
    expect(helperContent({ count: 10n }, 'input')).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON (it holds a BigInt)',
    });
    const hostile = {
      get secret(): string {
        throw new Error('jane@example.com is not allowed');
      },
    };
    const problem = helperContent(hostile, 'input');
    expect(problem).toEqual({
      problem: 'input was not recorded: it does not serialize as JSON (reading it threw Error)',
    });
    expect(JSON.stringify(problem)).not.toContain('jane');
  });

  it('records attachments in digest form and lists each with its JSON pointer', () => {
    const image = new Attachment({
      data: new Uint8Array([1, 2, 3]),
      contentType: 'image/png',
      name: 'a.png',
    });
    const invalid = new Attachment({ data: new Uint8Array([1]), contentType: 'nope' });
    const part = image.toJSON()!;
    const value = {
      messages: [{ parts: [{ type: 'text', content: 'hi' }, image] }],
      'a/b~c': invalid,
      again: image,
    };
    const content = helperContent(value, 'input');
    expect(content).toEqual({
      json: JSON.stringify({
        messages: [{ parts: [{ type: 'text', content: 'hi' }, part] }],
        'a/b~c': null,
        again: part,
      }),
      attachments: [
        { pointer: '/messages/0/parts/1', attachment: image },
        { pointer: '/a~1b~0c', attachment: invalid },
        { pointer: '/again', attachment: image },
      ],
    });
    expect(helperContent(image, 'output')).toEqual({
      json: JSON.stringify(part),
      attachments: [{ pointer: '', attachment: image }],
    });
  });
});
