import { describe, expect, it } from 'vitest';
import type { Check } from '../document/scenario-document-schema.js';
import { type DeterministicCheck, passesCheck, type SealedOutcome } from './deterministic-checks.js';

const outcome: SealedOutcome = {
  finalState: {
    orders: { o1: { status: 'refunded', total: 30 }, o2: { status: 'shipped' } },
    refunds: [{ order_id: 'o1', reason: 'damaged' }],
    note: 'refund issued to ana',
    empty: {},
  },
  toolCalls: [
    { tool: 'get_order', arguments: { order_id: 'o2' }, isError: false },
    { tool: 'refund_order', arguments: { order_id: 'o2' }, isError: true },
    { tool: 'get_order', arguments: { order_id: 'o1' }, isError: false },
    { tool: 'refund_order', arguments: { order_id: 'o1', reason: 'damaged' }, isError: false },
  ],
  output: 'Your refund for o1 is on its way.',
};

const named = { name: 'c' };
type Unnamed = DeterministicCheck extends infer C ? (C extends unknown ? Omit<C, 'name'> : never) : never;
const passes = (check: Unnamed, over: Partial<SealedOutcome> = {}) =>
  passesCheck({ ...named, ...check } as DeterministicCheck, { ...outcome, ...over });

describe('state checks', () => {
  it('equals: the value at the pointer equals (absent fails)', () => {
    expect(passes({ kind: 'state', assert: 'equals', pointer: '/orders/o1/status', value: 'refunded' })).toBe(
      true,
    );
    expect(passes({ kind: 'state', assert: 'equals', pointer: '/orders/o1/status', value: 'shipped' })).toBe(
      false,
    );
    expect(passes({ kind: 'state', assert: 'equals', pointer: '/orders/o9', value: null })).toBe(false);
    expect(
      passes({
        kind: 'state',
        assert: 'equals',
        pointer: '/orders/o1',
        value: { total: 30, status: 'refunded' },
      }),
    ).toBe(true);
  });

  it('contains: an array item matching, the members of an object, a substring', () => {
    expect(
      passes({ kind: 'state', assert: 'contains', pointer: '/refunds', value: { order_id: 'o1' } }),
    ).toBe(true);
    expect(
      passes({ kind: 'state', assert: 'contains', pointer: '/refunds', value: { order_id: 'o2' } }),
    ).toBe(false);
    expect(
      passes({ kind: 'state', assert: 'contains', pointer: '/orders/o1', value: { status: 'refunded' } }),
    ).toBe(true);
    expect(passes({ kind: 'state', assert: 'contains', pointer: '/note', value: 'refund issued' })).toBe(
      true,
    );
    expect(passes({ kind: 'state', assert: 'contains', pointer: '/note', value: 'declined' })).toBe(false);
    expect(passes({ kind: 'state', assert: 'contains', pointer: '/missing', value: 1 })).toBe(false);
  });

  it('absent and count (an absent location counts 0)', () => {
    expect(passes({ kind: 'state', assert: 'absent', pointer: '/orders/o3' })).toBe(true);
    expect(passes({ kind: 'state', assert: 'absent', pointer: '/orders/o1' })).toBe(false);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/refunds', count: 1 })).toBe(true);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/orders', count: 2 })).toBe(true);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/orders', count: 3 })).toBe(false);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/empty', count: 0 })).toBe(true);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/nothing', count: 0 })).toBe(true);
    expect(passes({ kind: 'state', assert: 'count', pointer: '/note', count: 0 })).toBe(false);
  });
});

describe('tool-call checks (successful calls only)', () => {
  it('called (at least once, or exactly times) and not_called', () => {
    expect(passes({ kind: 'tool_call', assert: 'called', tool: 'refund_order' })).toBe(true);
    expect(passes({ kind: 'tool_call', assert: 'called', tool: 'refund_order', times: 1 })).toBe(true);
    expect(passes({ kind: 'tool_call', assert: 'called', tool: 'get_order', times: 1 })).toBe(false);
    expect(passes({ kind: 'tool_call', assert: 'called', tool: 'cancel_order' })).toBe(false);
    expect(passes({ kind: 'tool_call', assert: 'not_called', tool: 'cancel_order' })).toBe(true);
    expect(passes({ kind: 'tool_call', assert: 'not_called', tool: 'refund_order' })).toBe(false);
    const refusedOnly = { toolCalls: [outcome.toolCalls[1]!] };
    expect(passes({ kind: 'tool_call', assert: 'not_called', tool: 'refund_order' }, refusedOnly)).toBe(true);
  });

  it('called_with: a successful call whose named arguments equal', () => {
    expect(
      passes({
        kind: 'tool_call',
        assert: 'called_with',
        tool: 'refund_order',
        arguments: { order_id: 'o1' },
      }),
    ).toBe(true);
    expect(
      passes({
        kind: 'tool_call',
        assert: 'called_with',
        tool: 'refund_order',
        arguments: { order_id: 'o2' },
      }),
    ).toBe(false);
    expect(
      passes({
        kind: 'tool_call',
        assert: 'called_with',
        tool: 'refund_order',
        arguments: { order_id: 'o1', reason: 'lost' },
      }),
    ).toBe(false);
  });

  it('order: the tools were called successfully in this order', () => {
    expect(passes({ kind: 'tool_call', assert: 'order', tools: ['get_order', 'refund_order'] })).toBe(true);
    expect(passes({ kind: 'tool_call', assert: 'order', tools: ['refund_order', 'get_order'] })).toBe(false);
    expect(
      passes({ kind: 'tool_call', assert: 'order', tools: ['get_order', 'get_order', 'refund_order'] }),
    ).toBe(true);
    expect(passes({ kind: 'tool_call', assert: 'order', tools: ['get_order', 'cancel_order'] })).toBe(false);
  });
});

describe('output checks with the built-in comparisons', () => {
  it('exact_match (JSON values; a string read as JSON text against a non-string)', () => {
    expect(
      passes({ kind: 'output', scorer: 'exact_match', expected: { ok: true } }, { output: '{"ok": true}' }),
    ).toBe(true);
    expect(passes({ kind: 'output', scorer: 'exact_match', expected: 'yes' }, { output: 'yes ' })).toBe(
      false,
    );
    expect(passes({ kind: 'output', scorer: 'exact_match', expected: null }, { output: undefined })).toBe(
      false,
    );
  });

  it('includes (case-sensitive by default) and json_schema', () => {
    expect(passes({ kind: 'output', scorer: 'includes', expected: 'Refund' })).toBe(false);
    expect(passes({ kind: 'output', scorer: 'includes', expected: 'Refund', caseSensitive: false })).toBe(
      true,
    );
    expect(passes({ kind: 'output', scorer: 'includes', expected: ['refund', 'o1'] })).toBe(true);
    const schema = { type: 'object', required: ['refunded'], properties: { refunded: { type: 'boolean' } } };
    expect(passes({ kind: 'output', scorer: 'json_schema', schema }, { output: { refunded: true } })).toBe(
      true,
    );
    expect(passes({ kind: 'output', scorer: 'json_schema', schema }, { output: '{"refunded":true}' })).toBe(
      true,
    );
    expect(passes({ kind: 'output', scorer: 'json_schema', schema }, { output: { refunded: 'yes' } })).toBe(
      false,
    );
    expect(
      passes({ kind: 'output', scorer: 'json_schema', schema: { type: 'string' } }, { output: 'plain' }),
    ).toBe(true);
  });
});

// The type of a document's check and the grader's agree (a compile-time check).
const _check: Check = { name: 'x', kind: 'state', assert: 'absent', pointer: '/x' };
void _check;
