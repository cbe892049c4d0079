import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callTool } from './call-tool.js';
import type { JsonValue } from './json-pointer.js';
import type { WorldTool } from './world-types.js';

const idArgs = {
  type: 'object',
  properties: { order_id: { type: 'string', minLength: 1 } },
  required: ['order_id'],
  additionalProperties: false,
};

const state: JsonValue = {
  orders: {
    o1: { id: 'o1', status: 'delivered', total: 30, tags: ['gift'] },
    o2: { id: 'o2', status: 'shipped', total: 80, tags: [] },
    o3: { id: 'o3', status: 'delivered', total: 120, tags: ['bulk'] },
  },
  refunds: [],
  secret: { note: 'outside every tool' },
};

const tools = {
  getOrder: {
    name: 'get_order',
    description: 'Reads an order.',
    arguments: idArgs,
    effect: { op: 'read', pointer: '/orders/{order_id}', notFound: 'No order has this ID.' },
  },
  findOrders: {
    name: 'find_orders',
    description: 'Finds orders.',
    arguments: {
      type: 'object',
      properties: { status: { type: 'string' }, min_total: { type: 'number' }, tag: { type: 'string' } },
      additionalProperties: false,
    },
    effect: {
      op: 'query',
      pointer: '/orders',
      where: [
        { path: '/status', op: 'equals', value: { $arg: 'status' } },
        { path: '/total', op: 'gte', value: { $arg: 'min_total' } },
        { path: '/tags', op: 'contains', value: { $arg: 'tag' } },
      ],
      limit: 2,
    },
  },
  refund: {
    name: 'refund_order',
    description: 'Refunds a delivered order.',
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
  cancel: {
    name: 'cancel_order',
    description: 'Cancels an order.',
    arguments: idArgs,
    preconditions: [
      {
        assert: 'not_equals',
        pointer: '/orders/{order_id}/status',
        value: 'delivered',
        error: 'Delivered orders cannot be cancelled.',
      },
    ],
    effect: { op: 'merge', pointer: '/orders/{order_id}', value: { status: 'cancelled', tags: null } },
  },
  setTotal: {
    name: 'set_total',
    description: 'Sets a total.',
    arguments: {
      type: 'object',
      properties: { order_id: { type: 'string' }, total: { type: 'integer', minimum: 0 } },
      required: ['order_id', 'total'],
    },
    effect: { op: 'update', pointer: '/orders/{order_id}/total', value: { $arg: 'total' } },
  },
  remove: {
    name: 'delete_order',
    description: 'Deletes an order.',
    arguments: idArgs,
    effect: { op: 'delete', pointer: '/orders/{order_id}' },
  },
  addOrder: {
    name: 'add_order',
    description: 'Adds an order.',
    arguments: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    preconditions: [{ assert: 'absent', pointer: '/orders/{order_id}', error: 'This order exists already.' }],
    effect: {
      op: 'create',
      pointer: '/orders/{order_id}',
      value: { id: { $arg: 'order_id' }, status: 'new' },
    },
  },
} satisfies Record<string, WorldTool>;

describe('the world engine', () => {
  it("read: answers the value at the pointer built from the arguments, or the tool's not-found error", () => {
    expect(callTool(tools.getOrder, state, { order_id: 'o1' })).toEqual({
      state,
      result: { isError: false, value: { id: 'o1', status: 'delivered', total: 30, tags: ['gift'] } },
    });
    expect(callTool(tools.getOrder, state, { order_id: 'o9' }).result).toEqual({
      isError: true,
      message: 'No order has this ID.',
    });
  });

  it('query: applies the filters the call gives, skips the others, and stops at the limit', () => {
    const ids = (args: Record<string, JsonValue>) => {
      const { result } = callTool(tools.findOrders, state, args);
      if (result.isError) throw new Error(result.message);
      return (result.value as { id: string }[]).map((order) => order.id);
    };
    expect(ids({})).toEqual(['o1', 'o2']);
    expect(ids({ status: 'delivered' })).toEqual(['o1', 'o3']);
    expect(ids({ status: 'delivered', min_total: 100 })).toEqual(['o3']);
    expect(ids({ tag: 'gift' })).toEqual(['o1']);
    expect(ids({ status: 'lost' })).toEqual([]);
  });

  it('create: appends with "-", leaves out absent optional arguments, and changes nothing on refusal', () => {
    const first = callTool(tools.refund, state, { order_id: 'o1' });
    expect(first.result).toEqual({ isError: false, value: { order_id: 'o1' } });
    expect((first.state as { refunds: unknown[] }).refunds).toEqual([{ order_id: 'o1' }]);
    const second = callTool(tools.refund, first.state, { order_id: 'o3', reason: 'damaged' });
    expect((second.state as { refunds: unknown[] }).refunds).toEqual([
      { order_id: 'o1' },
      { order_id: 'o3', reason: 'damaged' },
    ]);
    expect((state as { refunds: unknown[] }).refunds).toEqual([]);
    const added = callTool(tools.addOrder, state, { order_id: 'o4' });
    expect((added.state as { orders: Record<string, unknown> }).orders.o4).toEqual({
      id: 'o4',
      status: 'new',
    });
  });

  it('preconditions: the first that fails answers its error and the state stays', () => {
    expect(callTool(tools.refund, state, { order_id: 'o9' })).toEqual({
      state,
      result: { isError: true, message: 'No order has this ID.' },
    });
    expect(callTool(tools.refund, state, { order_id: 'o2' })).toEqual({
      state,
      result: { isError: true, message: 'Only delivered orders can be refunded.' },
    });
    expect(callTool(tools.cancel, state, { order_id: 'o1' }).result).toEqual({
      isError: true,
      message: 'Delivered orders cannot be cancelled.',
    });
    expect(callTool(tools.addOrder, state, { order_id: 'o1' }).result).toEqual({
      isError: true,
      message: 'This order exists already.',
    });
  });

  it('merge: merge-patches the object (null removes a member); update replaces the value', () => {
    const cancelled = callTool(tools.cancel, state, { order_id: 'o2' });
    expect(cancelled.result).toEqual({ isError: false, value: { id: 'o2', status: 'cancelled', total: 80 } });
    const updated = callTool(tools.setTotal, state, { order_id: 'o2', total: 75 });
    expect(updated.result).toEqual({ isError: false, value: 75 });
    expect((updated.state as { orders: { o2: { total: number } } }).orders.o2.total).toBe(75);
    expect(callTool(tools.setTotal, state, { order_id: 'o9', total: 1 }).result).toEqual({
      isError: true,
      message: 'Not found.',
    });
  });

  it('delete: removes what exists; deleting twice is an error result', () => {
    const deleted = callTool(tools.remove, state, { order_id: 'o1' });
    expect(deleted.result).toEqual({ isError: false, value: { deleted: true } });
    expect(Object.keys((deleted.state as { orders: object }).orders)).toEqual(['o2', 'o3']);
    expect(callTool(tools.remove, deleted.state, { order_id: 'o1' }).result).toEqual({
      isError: true,
      message: 'Not found.',
    });
  });

  it('validates arguments against the JSON Schema and lists every problem', () => {
    const { result, state: after } = callTool(tools.setTotal, state, { order_id: 7, total: -1, extra: true });
    expect(after).toBe(state);
    expect(result.isError).toBe(true);
    if (!result.isError) return;
    expect(result.message).toContain('Invalid arguments for set_total');
    expect(result.message).toContain('/order_id: must be string');
    expect(result.message).toContain('/total: must be >= 0');
    expect(callTool(tools.getOrder, state, 'o1').result).toMatchObject({ isError: true });
    expect(callTool(tools.getOrder, state, { order_id: 'o1', more: 1 }).result).toMatchObject({
      isError: true,
    });
  });

  it('never reads outside the state and never writes above the template (hostile arguments, property)', () => {
    const hostile = fc.oneof(
      fc.constantFrom('../secret', '/secret', '~1secret', '..', '', '__proto__', 'constructor', '-', '0'),
      fc.string(),
    );
    fc.assert(
      fc.property(hostile, (orderId) => {
        const read = callTool(tools.getOrder, state, { order_id: orderId });
        if (!read.result.isError) {
          expect(read.result.value).toEqual((state as { orders: Record<string, unknown> }).orders[orderId]);
        }
        const removed = callTool(tools.remove, state, { order_id: orderId });
        const after = removed.state as typeof state & { secret: unknown; refunds: unknown };
        expect(after.secret).toEqual({ note: 'outside every tool' });
        expect(after.refunds).toEqual([]);
        expect(JSON.stringify(read.result)).not.toContain('outside every tool');
      }),
    );
  });
});
