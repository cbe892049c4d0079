/**
 * A small scenario document for the client's tests, typed as the SDK's `ScenarioDocument` (so the
 * type holds a real document). Not part of the package's public API.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { ScenarioDocument } from '../../types/scenario-document.js';

/** A fresh refunds scenario with a unique slug. */
export function refundsScenario(): ScenarioDocument {
  return {
    name: 'Refunds',
    slug: `refunds-${randomUUID().slice(0, 8)}`,
    description: 'Refund delivered orders only.',
    world: {
      state: { orders: { o1: { status: 'delivered' }, o2: { status: 'shipped' } }, refunds: [] },
      tools: [
        {
          name: 'get_order',
          description: 'Reads an order.',
          arguments: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
          effect: { op: 'read', pointer: '/orders/{order_id}', notFound: 'No such order.' },
        },
        {
          name: 'refund_order',
          description: 'Refunds a delivered order.',
          arguments: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
          preconditions: [
            {
              assert: 'equals',
              pointer: '/orders/{order_id}/status',
              value: 'delivered',
              error: 'Only delivered orders can be refunded.',
            },
          ],
          effect: { op: 'create', pointer: '/refunds/-', value: { order_id: { $arg: 'order_id' } } },
        },
      ],
    },
    cases: [
      {
        key: 'refund',
        inputs: { message: 'Refund o1.' },
        files: [{ name: 'note.txt', mediaType: 'text/plain', content: 'o1' }],
      },
      { key: 'refuse', inputs: { message: 'Refund o2.' } },
    ],
    grading: {
      checks: [
        {
          name: 'refunded',
          kind: 'state',
          assert: 'contains',
          pointer: '/refunds',
          value: { order_id: 'o1' },
          cases: ['refund'],
        },
        {
          name: 'no refund',
          kind: 'state',
          assert: 'count',
          pointer: '/refunds',
          count: 0,
          cases: ['refuse'],
        },
        { name: 'says so', kind: 'output', scorer: 'includes', expected: 'refund', caseSensitive: false },
      ],
    },
  };
}
