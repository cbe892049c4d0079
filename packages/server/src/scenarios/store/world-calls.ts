/**
 * Calls into a trial's world: each call is one write transaction that reads the world's state,
 * runs the engine, and records the next state and the call (in order), so two worlds never see
 * each other's state and the calls of one world are serialized. Refusals the agent can act on
 * (bad arguments, a failed precondition, nothing at a location, the call or size limit) are error
 * results, recorded like any call.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ApiError } from '../../http/api-error.js';
import { inTransaction } from '../../store/sqlite-database.js';
import { MAX_STATE_BYTES, MAX_TOOL_CALLS } from '../document/document-limits.js';
import type { ResolvedScenarioOptions } from '../scenario-options.js';
import { callTool } from '../world/call-tool.js';
import type { JsonValue } from '../world/json-pointer.js';
import type { ToolResult, WorldTool } from '../world/world-types.js';
import type { TrialRow } from './trial-rows.js';
import type { TrialStore } from './trial-store.js';

/** A tool as an agent sees it (MCP's tool shape). */
export interface PublicTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The world side of trials. */
export class WorldCalls {
  readonly #db: DatabaseSync;
  readonly #options: ResolvedScenarioOptions;
  readonly #trials: TrialStore;
  readonly #sql: Record<string, StatementSync>;

  constructor(options: ResolvedScenarioOptions, trials: TrialStore) {
    this.#db = options.registry.context.db;
    this.#options = options;
    this.#trials = trials;
    this.#sql = {
      trial: this.#db.prepare('SELECT * FROM scenario_trials WHERE id = ?'),
      update: this.#db.prepare('UPDATE scenario_trials SET world_state = ?, call_count = ? WHERE id = ?'),
      insertCall: this.#db.prepare(
        'INSERT INTO scenario_tool_calls (trial_id, seq, tool, arguments, result, is_error, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  /** The tools of a trial's world. */
  tools(trialId: string): PublicTool[] {
    return this.#trials.context(trialId).version.publicPart.tools;
  }

  /** The tool `name` of a trial's world, or `undefined`. */
  tool(trialId: string, name: string): WorldTool | undefined {
    return this.#trials.context(trialId).version.world.tools.find((tool) => tool.name === name);
  }

  /**
   * Calls the tool `name` of the trial's world with `args` and records the call.
   *
   * @throws ApiError 401 `trial_closed` when the world takes no more calls (sealed or expired,
   *   checked inside the transaction); 404 when the world has no such tool.
   */
  call(trialId: string, name: string, args: unknown): ToolResult {
    const tool = this.tool(trialId, name);
    if (tool === undefined)
      throw new ApiError(
        404,
        'not_found',
        `This world has no tool named ${JSON.stringify(name.slice(0, 64))}.`,
      );
    return inTransaction(this.#db, () => {
      const row = this.#sql.trial!.get(trialId) as unknown as TrialRow;
      if (!this.#trials.isOpen(row)) throw closedWorld();
      const count = Number(row.call_count);
      // Past the limit, calls are refused and no longer recorded (the record stays bounded).
      if (count >= MAX_TOOL_CALLS) {
        return {
          isError: true,
          message: `This world takes at most ${MAX_TOOL_CALLS} calls; the limit is reached.`,
        };
      }
      const outcome = callTool(tool, JSON.parse(row.world_state) as JsonValue, args);
      let result = outcome.result;
      let next = row.world_state;
      if (!result.isError) {
        const text = JSON.stringify(outcome.state);
        if (Buffer.byteLength(text, 'utf8') > MAX_STATE_BYTES) {
          result = {
            isError: true,
            message: 'This change would make the world larger than it may be; nothing was changed.',
          };
        } else {
          next = text;
        }
      }
      const seq = count + 1;
      this.#sql.update!.run(next, seq, trialId);
      this.#sql.insertCall!.run(
        trialId,
        seq,
        name,
        JSON.stringify(args ?? null),
        JSON.stringify(result),
        result.isError ? 1 : 0,
        new Date(this.#options.now()).toISOString(),
      );
      return result;
    });
  }
}

/** The refusal of a call into a world that is sealed or expired. */
export function closedWorld(): ApiError {
  return new ApiError(
    401,
    'trial_closed',
    'This trial is sealed or expired: its world takes no more calls and its token is no longer valid.',
    {
      'www-authenticate': 'Bearer',
    },
  );
}
