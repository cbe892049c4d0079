/**
 * Lets Node run the packages' TypeScript sources: resolves the sources' relative `./x.js` imports
 * to `./x.ts`, which Node (22.18+, 24) runs by stripping types. Benchmarks import it first; tests
 * that start a child process from source pass it with `--import`. The hook itself is the server's
 * (`packages/server/src/store/ts-source-resolve.ts`), which its thread entry uses from source too.
 * @module
 */
import { resolveTsSources } from '../packages/server/src/store/ts-source-resolve.ts';

resolveTsSources();
