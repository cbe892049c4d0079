/**
 * A deterministic, rule-based support agent for the customer-support scenario: no model, only the
 * world's tools. `svc eval --scenario` calls `runMyAgent(inputs, context)`; the return value is the
 * final output. It follows the policy except for one rule, on purpose: it refunds the amount the
 * customer asks for without capping it at the order total (the `refund-over-total` case fails).
 * Runs as it is under Node 24 (erasable TypeScript only).
 * @module
 */

/** What a world tool answers: its value, or an error result the agent may act on. */
export type ToolResult = { isError: false; value: unknown } | { isError: true; message: string };

/** The world's tools as plain async functions by name. */
export type Tools = Record<string, (args?: Record<string, unknown>) => Promise<ToolResult>>;

/** What `runMyAgent` is given besides the case's inputs. */
export interface AgentContext {
  tools: Tools;
  /** An MCP client connected to the same world (unused by this agent). */
  mcp?: unknown;
  /** The case's agent-visible files. */
  files?: readonly unknown[];
}

/** The case's inputs: who writes, and their message. */
export interface SupportInputs {
  customer_id: string;
  message: string;
}

interface Order {
  id: string;
  customer: string;
  status: string;
  total: number;
  currency: string;
  return_window: string;
}

async function call(tools: Tools, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const tool = tools[name];
  if (tool === undefined) throw new Error(`The world has no tool ${name}.`);
  return tool(args);
}

/** Answers one customer message, acting through the world's tools. */
export async function runMyAgent(inputs: SupportInputs, context: AgentContext): Promise<string> {
  const { tools } = context;
  const orderId = /\bo\d+\b/i.exec(inputs.message)?.[0]?.toLowerCase();
  if (orderId === undefined) return 'Thanks for writing! Which order is this about? Please send its ID.';
  const read = await call(tools, 'get_order', { order_id: orderId });
  if (read.isError) return `Sorry, I could not find order ${orderId}: ${read.message}`;
  const order = read.value as Order;
  if (order.customer !== inputs.customer_id) {
    return `Sorry, order ${orderId} is not on your account, so I cannot change it.`;
  }

  if (/\bcancel/i.test(inputs.message)) {
    const changed = await call(tools, 'update_order_status', { order_id: orderId, status: 'cancelled' });
    if (changed.isError) return `Sorry, I could not cancel order ${orderId}: ${changed.message}`;
    return `Thanks! Order ${orderId} is cancelled; you will not be charged.`;
  }

  if (/\brefund|money back/i.test(inputs.message)) {
    if (order.status !== 'delivered') {
      return `Sorry, order ${orderId} is ${order.status}: our policy only refunds delivered orders.`;
    }
    if (order.return_window !== 'open') {
      return `Sorry, order ${orderId} was delivered more than 30 days ago: our refund policy only covers orders within 30 days of delivery.`;
    }
    // The deliberate flaw: the amount the customer asks for wins over the order total.
    const asked = /(\d+(?:\.\d+)?)\s*(?:EUR|€)/i.exec(inputs.message)?.[1];
    const amount = asked === undefined ? order.total : Number(asked);
    const refunded = await call(tools, 'issue_refund', {
      order_id: orderId,
      amount,
      reason: inputs.message.slice(0, 500),
    });
    if (refunded.isError) return `Sorry, I could not refund order ${orderId}: ${refunded.message}`;
    return `Thanks for your patience: I issued a refund of ${amount} ${order.currency} for order ${orderId}.`;
  }

  return `Thanks for writing! Order ${orderId} is ${order.status}. How can I help with it?`;
}
