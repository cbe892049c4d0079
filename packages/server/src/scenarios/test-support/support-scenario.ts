/**
 * A small customer-support scenario (τ-bench-like) for the scenario tests: orders, a refund
 * policy the agent must follow, and sealed checks of every kind. Not part of the package's API.
 * @module
 */
import { randomUUID } from 'node:crypto';

/** A fresh copy of the support scenario document, with a unique slug unless `slug` is given. */
export function supportScenario(slug = `support-${randomUUID().slice(0, 8)}`) {
  return {
    name: 'Customer support',
    slug,
    description: 'Refunds under a policy: delivered orders only.',
    world: {
      state: {
        orders: {
          o1: { id: 'o1', customer: 'ana', status: 'delivered', total: 30 },
          o2: { id: 'o2', customer: 'ana', status: 'shipped', total: 80 },
        },
        refunds: [],
        // The goal is in the sealed checks, never here: this is only the world's data.
        policy: 'Refund delivered orders only.',
      },
      tools: [
        {
          name: 'get_order',
          description: 'Reads an order by its ID.',
          arguments: {
            type: 'object',
            properties: { order_id: { type: 'string' } },
            required: ['order_id'],
            additionalProperties: false,
          },
          effect: { op: 'read', pointer: '/orders/{order_id}', notFound: 'No order has this ID.' },
        },
        {
          name: 'list_orders',
          description: "Lists a customer's orders, optionally by status.",
          arguments: {
            type: 'object',
            properties: { customer: { type: 'string' }, status: { type: 'string' } },
            required: ['customer'],
            additionalProperties: false,
          },
          effect: {
            op: 'query',
            pointer: '/orders',
            where: [
              { path: '/customer', op: 'equals', value: { $arg: 'customer' } },
              { path: '/status', op: 'equals', value: { $arg: 'status' } },
            ],
          },
        },
        {
          name: 'refund_order',
          description: 'Refunds an order. Policy: only delivered orders.',
          arguments: {
            type: 'object',
            properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
            required: ['order_id'],
            additionalProperties: false,
          },
          preconditions: [
            { assert: 'exists', pointer: '/orders/{order_id}', error: 'No order has this ID.' },
            {
              assert: 'equals',
              pointer: '/orders/{order_id}/status',
              value: 'delivered',
              error: 'Only delivered orders can be refunded.',
            },
          ],
          effect: {
            op: 'create',
            pointer: '/refunds/-',
            value: { order_id: { $arg: 'order_id' }, reason: { $arg: 'reason' } },
          },
        },
        {
          name: 'cancel_order',
          description: 'Cancels an order that is not delivered yet.',
          arguments: {
            type: 'object',
            properties: { order_id: { type: 'string' } },
            required: ['order_id'],
            additionalProperties: false,
          },
          preconditions: [
            {
              assert: 'not_equals',
              pointer: '/orders/{order_id}/status',
              value: 'delivered',
              error: 'Delivered orders cannot be cancelled.',
            },
          ],
          effect: { op: 'merge', pointer: '/orders/{order_id}', value: { status: 'cancelled' } },
        },
      ],
    },
    cases: [
      {
        key: 'refund-delivered',
        name: 'Refund a delivered order',
        inputs: { message: 'Please refund my order o1.' },
        files: [{ name: 'receipt.txt', mediaType: 'text/plain', content: 'Order o1: 30 EUR' }],
      },
      {
        key: 'refund-shipped',
        name: 'Refuse to refund a shipped order',
        inputs: { message: 'Refund order o2 please.' },
      },
      {
        key: 'cancel-new',
        inputs: { message: 'Cancel order o3.' },
        state: [
          { op: 'add', path: '/orders/o3', value: { id: 'o3', customer: 'bo', status: 'new', total: 5 } },
        ],
      },
    ],
    grading: {
      checks: [
        {
          name: 'refund recorded',
          kind: 'state',
          assert: 'contains',
          pointer: '/refunds',
          value: { order_id: 'o1' },
          cases: ['refund-delivered'],
        },
        {
          name: 'one refund',
          kind: 'state',
          assert: 'count',
          pointer: '/refunds',
          count: 1,
          cases: ['refund-delivered'],
        },
        {
          name: 'looked up the order',
          kind: 'tool_call',
          assert: 'called_with',
          tool: 'get_order',
          arguments: { order_id: 'o1' },
          cases: ['refund-delivered'],
        },
        {
          name: 'confirms',
          kind: 'output',
          scorer: 'includes',
          expected: 'refund',
          caseSensitive: false,
          cases: ['refund-delivered'],
        },
        {
          name: 'no refund',
          kind: 'state',
          assert: 'count',
          pointer: '/refunds',
          count: 0,
          cases: ['refund-shipped'],
        },
        {
          name: 'never refunded',
          kind: 'tool_call',
          assert: 'not_called',
          tool: 'refund_order',
          cases: ['refund-shipped'],
        },
        {
          name: 'cancelled',
          kind: 'state',
          assert: 'equals',
          pointer: '/orders/o3/status',
          value: 'cancelled',
          cases: ['cancel-new'],
        },
        {
          name: 'looked before cancelling',
          kind: 'tool_call',
          assert: 'order',
          tools: ['get_order', 'cancel_order'],
          cases: ['cancel-new'],
          required: false,
        },
      ],
    },
  };
}

/** The support document's type. */
export type SupportScenario = ReturnType<typeof supportScenario>;
