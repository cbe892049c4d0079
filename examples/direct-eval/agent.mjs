/**
 * The agent under test: a deliberately simple "summarizer" run by `svc eval` once per case.
 *
 * - `SVC_CASE_INPUTS`: the case's inputs (JSON), here `{ "audience": "…" }`.
 * - `files/source/<name>`: the document to summarize (the working directory is the case's own
 *   directory); `files/attached_template/<name>`: the summary's template.
 * - `SVC_CASE_OUTPUT_DIR`: where it writes `summary.md` (the primary output, named in
 *   `manifest.json`) and a one-line `summary.txt`.
 *
 * It keeps the sentences that hold a number, which is right for some documents and misses key
 * terms of others, so the run shows a failing case.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const inputs = JSON.parse(process.env.SVC_CASE_INPUTS ?? '{}');
const output = process.env.SVC_CASE_OUTPUT_DIR;
if (!output) throw new Error('run me with svc eval: SVC_CASE_OUTPUT_DIR is not set');

const [sourceName] = readdirSync('files/source');
const source = readFileSync(join('files/source', sourceName), 'utf8');
const [templateName] = readdirSync('files/attached_template');
const template = readFileSync(join('files/attached_template', templateName), 'utf8');

const title = (/^# (.+)$/m.exec(source)?.[1] ?? sourceName).trim();
const sentences = source
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line) => line.trim());
const points = sentences.filter((sentence) => /\d/.test(sentence));

const summary = template
  .replace('{title}', title)
  .replace('{points}', points.map((point) => `- ${point}`).join('\n'));
writeFileSync(join(output, 'summary.md'), summary);
writeFileSync(
  join(output, 'summary.txt'),
  `${points.length} key points for ${inputs.audience ?? 'everyone'}.\n`,
);
writeFileSync(join(output, 'manifest.json'), JSON.stringify({ primary: 'summary.md' }));
console.log(`summarized ${sourceName}: ${points.length} points`);
