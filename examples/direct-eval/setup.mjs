/**
 * Creates the example's eval set and scorer in the project of `SVC_BASE_URL` (a Read-and-write key
 * in `SVC_RW_KEY`, or `SVC_API_KEY`: run it with the env file of `svc serve` or of `svc login`):
 *
 * - the eval set `policy-summaries`: three document cases, each with its document (`source`), the
 *   summary template (`attached_template`) and a reference summary for evaluators only
 *   (`evaluator_reference`, which the agent never sees); `expected` lists the key terms a summary
 *   must keep;
 * - the scorer `key-terms`: the built-in string inclusion, ignoring case.
 *
 * Run it again: what exists is left as it is.
 */
import { readFileSync } from 'node:fs';
import { builtins, createEvaluationClient } from '@svc-run/sdk/evals';

const baseUrl = process.env.SVC_BASE_URL;
const apiKey = process.env.SVC_RW_KEY || process.env.SVC_API_KEY;
if (!baseUrl || !apiKey) {
  console.error('Set SVC_BASE_URL and SVC_RW_KEY (or SVC_API_KEY): node --env-file=<env file> setup.mjs');
  process.exit(2);
}
const client = createEvaluationClient({ apiKey, baseUrl });
const document = (name) => readFileSync(new URL(`./documents/${name}`, import.meta.url));

const CASES = [
  {
    externalKey: 'refund-policy',
    inputs: { audience: 'customers' },
    expected: ['30 days', 'clearance'],
    reference:
      'Unused items: 30 days for a full refund; clearance items are final sale; shipping refunded only for damage.',
  },
  {
    externalKey: 'data-retention',
    inputs: { audience: 'auditors' },
    expected: ['90 days', '10 years'],
    reference:
      'Closed accounts deleted within 90 days; invoices kept 10 years; backups overwritten every 35 days.',
  },
  {
    externalKey: 'support-hours',
    inputs: { audience: 'customers' },
    expected: ['8:00 to 18:00'],
    reference: 'Chat Monday to Friday 8:00 to 18:00 CET; Enterprise incidents by phone around the clock.',
  },
];

async function findBySlug(list, slug) {
  let after;
  do {
    const page = await list(after === undefined ? { limit: 100 } : { after, limit: 100 });
    const found = page.items.find((item) => item.slug === slug);
    if (found) return found;
    after = page.nextCursor ?? undefined;
  } while (after !== undefined);
  return undefined;
}

const existing = await findBySlug((page) => client.listDatasets(page), 'policy-summaries');
if (existing?.latestVersionId) {
  console.log(`The eval set policy-summaries exists already (dataset ${existing.id}).`);
} else {
  const dataset =
    existing ??
    (await client.createDataset({
      name: 'Policy summaries',
      slug: 'policy-summaries',
      description: 'Summaries of policy documents that keep their key terms.',
    }));
  let version = await client.createDatasetVersion(dataset.id);
  for (const item of CASES) {
    const written = await client.addEvalSetCase(version.id, {
      expectedRevision: version.revision,
      externalKey: item.externalKey,
      inputs: item.inputs,
      expected: item.expected,
      files: [
        {
          role: 'source',
          name: `${item.externalKey}.md`,
          contentType: 'text/markdown',
          data: document(`${item.externalKey}.md`),
        },
        {
          role: 'attached_template',
          name: 'summary-template.md',
          contentType: 'text/markdown',
          data: document('summary-template.md'),
        },
        {
          role: 'evaluator_reference',
          name: 'reference-summary.txt',
          contentType: 'text/plain',
          data: Buffer.from(item.reference),
        },
      ],
    });
    version = written.version;
  }
  await client.freezeDatasetVersion(version.id, version.revision);
  console.log(
    `Created the eval set policy-summaries: version ${version.number}, ${CASES.length} cases, frozen.`,
  );
}

if (await findBySlug((page) => client.listScorers(page), 'key-terms')) {
  console.log('The scorer key-terms exists already.');
} else {
  const scorer = await client.createScorer({
    name: 'Key terms',
    slug: 'key-terms',
    description: 'The summary keeps every expected key term (ignoring case).',
  });
  await client.publishScorerVersion(scorer.id, builtins.includes(false));
  console.log('Created the scorer key-terms (built-in string inclusion, ignoring case).');
}
