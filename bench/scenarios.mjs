/**
 * The scenarios benchmark: a world's tool calls over MCP (Streamable HTTP, the official client)
 * against the same calls over the world's plain HTTP route in the same run, and the time to start,
 * and to seal and grade, a trial.
 *
 * - Server: the reference server (`real-server.mjs`, the built `@svc-run/server`, a child process).
 * - Scenario: a customer-support world (orders, refunds, a refund policy as a precondition; the
 *   shape of the support example of `examples/scenarios`), with BENCH_SCENARIO_ORDERS orders
 *   (default 200) in its state and seven deterministic checks (state, tool-call, output).
 * - Trials: BENCH_SCENARIO_TRIALS (default 20), each with its own world and token. In each, every
 *   call is made BENCH_SCENARIO_CALLS times (default 20) alternating MCP and HTTP: a read
 *   (`get_order`), a query (`list_orders` filtered by customer and status) and a write that the
 *   policy refuses (`refund_order` of a shipped order: precondition, error result, recorded).
 *   Then one refund that succeeds, and the seal (output, final state, calls; SHA-256 seal;
 *   grading of the seven checks; the registry's execution and result) timed as one request.
 * - Figures: client wall time per call on loopback, p50 and p90; the ratio MCP / HTTP per call.
 * - Checks (exit 1 when one fails): every call answers as the world's rules say; each sealed trial
 *   passes its checks; the run's pass^k is 1.
 * @module
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ask, Children, envInt, fmt, fmtInt, pad, padLeft, runBench } from './bench-support.mjs';

const ORDERS = envInt('BENCH_SCENARIO_ORDERS', 200, 2);
const TRIALS = envInt('BENCH_SCENARIO_TRIALS', 20, 1);
const CALLS = envInt('BENCH_SCENARIO_CALLS', 20, 1);
const WATCHDOG_MS = 10 * 60 * 1000;

const here = import.meta.dirname;
const children = new Children();

function supportScenario() {
  const orders = {};
  for (let i = 1; i <= ORDERS; i++) {
    orders[`o${i}`] = {
      id: `o${i}`,
      customer: `c${i % 20}`,
      status: i % 3 === 0 ? 'shipped' : 'delivered',
      total: 10 + (i % 90),
      items: [{ sku: `sku-${i}`, quantity: 1 + (i % 3) }],
    };
  }
  const idArgs = {
    type: 'object',
    properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
    required: ['order_id'],
    additionalProperties: false,
  };
  return {
    name: 'Bench support',
    slug: `bench-support-${process.pid}`,
    description: 'Refunds under a policy.',
    world: {
      state: { orders, refunds: [], policy: 'Refund delivered orders only.' },
      tools: [
        {
          name: 'get_order',
          description: 'Reads an order.',
          arguments: idArgs,
          effect: { op: 'read', pointer: '/orders/{order_id}', notFound: 'No such order.' },
        },
        {
          name: 'list_orders',
          description: "Lists a customer's orders, optionally by status.",
          arguments: {
            type: 'object',
            properties: { customer: { type: 'string' }, status: { type: 'string' } },
            required: ['customer'],
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
          description: 'Refunds a delivered order.',
          arguments: idArgs,
          preconditions: [
            { assert: 'exists', pointer: '/orders/{order_id}', error: 'No such order.' },
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
      ],
    },
    cases: [{ key: 'refund', inputs: { message: 'Please refund order o1.' } }],
    grading: {
      checks: [
        {
          name: 'refund recorded',
          kind: 'state',
          assert: 'contains',
          pointer: '/refunds',
          value: { order_id: 'o1' },
        },
        { name: 'one refund', kind: 'state', assert: 'count', pointer: '/refunds', count: 1 },
        {
          name: 'shipped untouched',
          kind: 'state',
          assert: 'equals',
          pointer: '/orders/o3/status',
          value: 'shipped',
        },
        {
          name: 'looked up',
          kind: 'tool_call',
          assert: 'called_with',
          tool: 'get_order',
          arguments: { order_id: 'o1' },
        },
        { name: 'refunded once', kind: 'tool_call', assert: 'called', tool: 'refund_order', times: 1 },
        { name: 'order', kind: 'tool_call', assert: 'order', tools: ['get_order', 'refund_order'] },
        { name: 'confirms', kind: 'output', scorer: 'includes', expected: 'refund', caseSensitive: false },
      ],
    },
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const server = await children.start(join(here, 'real-server.mjs'), 'scenarios-server');
  const { readWriteKey } = await ask(server, 'keys');
  let keyCounter = 0;
  const evals = async (method, path, body) => {
    const response = await fetch(`${server.origin}/api/v1/evals${path}`, {
      method,
      headers: {
        authorization: `Bearer ${readWriteKey}`,
        ...(body === undefined
          ? {}
          : {
              'content-type': 'application/json',
              'idempotency-key': `bench-${process.pid}-${keyCounter++}`,
            }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await response.json();
    if (response.status !== 200)
      throw new Error(
        `${method} ${path} answered ${response.status} ${JSON.stringify(answer).slice(0, 300)}`,
      );
    return answer;
  };
  try {
    const published = await evals('POST', '/scenarios', supportScenario());
    const run = await evals('POST', '/scenario-runs', {
      scenarioVersionId: published.version.id,
      trials: TRIALS,
    });
    const timings = {
      start: [],
      mcpConnect: [],
      mcpRead: [],
      httpRead: [],
      mcpQuery: [],
      httpQuery: [],
      mcpRefused: [],
      httpRefused: [],
      seal: [],
    };
    const timed = async (list, work) => {
      const started = performance.now();
      const result = await work();
      list.push(performance.now() - started);
      return result;
    };
    const expectResult = (what, result, isError) => {
      if (Boolean(result.isError) !== isError)
        throw new Error(`${what} answered ${JSON.stringify(result).slice(0, 300)}`);
    };
    for (let trial = 1; trial <= TRIALS; trial++) {
      const started = await timed(timings.start, () =>
        evals('POST', `/scenario-runs/${run.id}/trials`, { caseKey: 'refund', trial }),
      );
      const { token, world } = started;
      const client = new Client({ name: 'svc-bench', version: '1.0.0' });
      await timed(timings.mcpConnect, () =>
        client.connect(
          new StreamableHTTPClientTransport(new URL(world.mcpUrl), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        ),
      );
      const http = async (tool, args) => {
        const response = await fetch(`${world.toolsUrl}/${tool}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        if (response.status !== 200) throw new Error(`${tool} over HTTP answered ${response.status}`);
        return response.json();
      };
      const mcp = (tool, args) => client.callTool({ name: tool, arguments: args });
      const calls = [
        ['Read', 'get_order', { order_id: 'o1' }, false],
        ['Query', 'list_orders', { customer: 'c1', status: 'delivered' }, false],
        ['Refused', 'refund_order', { order_id: 'o3' }, true],
      ];
      for (let round = 0; round < CALLS; round++) {
        for (const [kind, tool, args, isError] of calls) {
          expectResult(`MCP ${tool}`, await timed(timings[`mcp${kind}`], () => mcp(tool, args)), isError);
          expectResult(`HTTP ${tool}`, await timed(timings[`http${kind}`], () => http(tool, args)), isError);
        }
      }
      expectResult(
        'refund_order o1',
        await mcp('refund_order', { order_id: 'o1', reason: 'damaged' }),
        false,
      );
      await client.close();
      const sealed = await timed(timings.seal, () =>
        evals('POST', `/trials/${started.trial.id}/seal`, { output: 'Your refund for o1 is on its way.' }),
      );
      if (sealed.outcome !== 'passed')
        throw new Error(`trial ${trial} sealed as ${sealed.outcome}: ${sealed.failedChecks.join(', ')}`);
    }
    const summary = await evals('GET', `/scenario-runs/${run.id}`);
    if (summary.passHatK !== 1) throw new Error(`pass^${TRIALS} is ${summary.passHatK}, not 1`);

    const rows = [
      ['trial start (world + token)', timings.start],
      ['MCP connect (initialize)', timings.mcpConnect],
      ['read get_order: MCP tools/call', timings.mcpRead],
      ['  plain HTTP POST …/tools/get_order', timings.httpRead],
      [`query list_orders (${fmtInt(ORDERS)} orders): MCP`, timings.mcpQuery],
      ['  plain HTTP', timings.httpQuery],
      ['refused refund_order (precondition): MCP', timings.mcpRefused],
      ['  plain HTTP', timings.httpRefused],
      ['seal + grading (7 checks)', timings.seal],
    ];
    console.log(
      `\nScenarios: ${fmtInt(TRIALS)} trials, ${fmtInt(CALLS)} calls of each kind per trial and transport, ${fmtInt(ORDERS)} orders in the world (client wall time per request, loopback)`,
    );
    console.log(
      [pad('operation', 44), padLeft('n', 6), padLeft('ms p50', 8), padLeft('ms p90', 8)].join('  '),
    );
    for (const [label, values] of rows) {
      console.log(
        [
          pad(label, 44),
          padLeft(fmtInt(values.length), 6),
          padLeft(fmt(percentile(values, 50), 2), 8),
          padLeft(fmt(percentile(values, 90), 2), 8),
        ].join('  '),
      );
    }
    const ratio = (a, b) => fmt(percentile(a, 50) / percentile(b, 50), 2);
    console.log(
      `\nMCP / plain HTTP per call (p50): read ${ratio(timings.mcpRead, timings.httpRead)}×, query ${ratio(timings.mcpQuery, timings.httpQuery)}×, refused write ${ratio(timings.mcpRefused, timings.httpRefused)}×. Every trial passed; pass^${TRIALS} = 1.`,
    );
  } finally {
    await children.stop(server);
  }
}

await runBench('scenarios', main, children, WATCHDOG_MS);
