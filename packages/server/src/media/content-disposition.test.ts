import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

describe('contentDisposition', () => {
  it('is a bare attachment without a name', () => {
    expect(contentDisposition(null)).toBe('attachment');
  });

  it('gives an ASCII fallback and the UTF-8 name, escaping what a header cannot hold', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('Über "quotes" \\ 100%.pdf')).toBe(
      `attachment; filename="_ber _quotes_ _ 100_.pdf"; filename*=UTF-8''%C3%9Cber%20%22quotes%22%20%5C%20100%25.pdf`,
    );
    expect(contentDisposition("it's (1).png")).toBe(
      `attachment; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`,
    );
  });
});
