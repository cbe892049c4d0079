/**
 * Summarizes a V8 `.cpuprofile` (as written by `BENCH_CPU_PROF=<dir> pnpm bench`): the functions
 * with the most self time and the most inclusive time (time with the function anywhere on the
 * stack, counted once per sample), as milliseconds and as a share of the non-idle samples.
 *
 * Usage: `node bench/cpuprofile-summary.mjs <file.cpuprofile> [top]`
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/cpuprofile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parents = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);

function label(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const where = url.includes('/node_modules/')
    ? url.slice(url.lastIndexOf('/node_modules/') + 14)
    : basename(url.replace(/^file:\/\//, ''));
  return `${name} ${where}:${lineNumber + 1}`;
}

// Sample durations: timeDeltas[i] is the time from sample i-1 to sample i.
const self = new Map();
const inclusive = new Map();
let total = 0;
let idle = 0;
const { samples, timeDeltas } = profile;
for (let i = 0; i < samples.length; i++) {
  const micros = timeDeltas[i + 1] ?? 0;
  const leaf = nodes.get(samples[i]);
  const leafLabel = label(leaf);
  if (leafLabel === '(idle)') {
    idle += micros;
    continue;
  }
  total += micros;
  self.set(leafLabel, (self.get(leafLabel) ?? 0) + micros);
  const seen = new Set();
  for (let id = samples[i]; id !== undefined; id = parents.get(id)) {
    const l = label(nodes.get(id));
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + micros);
  }
}

const ms = (micros) => (micros / 1000).toFixed(0).padStart(7);
const pct = (micros) => `${((micros / total) * 100).toFixed(1).padStart(5)} %`;
function print(title, map) {
  console.log(title);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, micros] of rows) console.log(`${ms(micros)} ms ${pct(micros)}  ${name}`);
  console.log('');
}

console.log(`${file}: ${ms(total).trim()} ms busy, ${ms(idle).trim()} ms idle\n`);
print('self time', self);
inclusive.delete('(root)');
print('inclusive time', inclusive);
