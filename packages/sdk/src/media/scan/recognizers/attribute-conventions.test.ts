import { describe, expect, it } from 'vitest';
import { isDeclaredPlainText, readsOnlyPartsLists } from './attribute-conventions.js';

describe('attribute conventions', () => {
  it('reads OpenInference input and output mime types', () => {
    expect(isDeclaredPlainText('input.value', { 'input.mime_type': 'text/plain' })).toBe(true);
    expect(isDeclaredPlainText('output.value', { 'output.mime_type': 'TEXT/PLAIN;charset=utf-8' })).toBe(
      true,
    );
    expect(isDeclaredPlainText('output.value', { 'output.mime_type': 'application/json' })).toBe(false);
    expect(isDeclaredPlainText('output.value', { 'input.mime_type': 'text/plain' })).toBe(false);
    expect(isDeclaredPlainText('metadata', { 'input.mime_type': 'text/plain' })).toBe(false);
    expect(isDeclaredPlainText('input.value', undefined)).toBe(false);
  });

  it('knows the OpenLLMetry indexed contents', () => {
    expect(readsOnlyPartsLists('gen_ai.prompt.0.content')).toBe(true);
    expect(readsOnlyPartsLists('gen_ai.completion.12.content')).toBe(true);
    expect(readsOnlyPartsLists('gen_ai.prompt.x.content')).toBe(false);
    expect(readsOnlyPartsLists('gen_ai.input.messages')).toBe(false);
  });
});
