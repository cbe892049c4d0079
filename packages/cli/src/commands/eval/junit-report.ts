/**
 * `--junit <file>`: the run as a JUnit XML report for CI systems. One `<testsuite>` (the eval set),
 * one `<testcase>` per case: FAIL is a `<failure>` naming the failing metrics, ERROR an `<error>`
 * of the error's type, PENDING `<skipped>` (checks pending; the exit code is 1 all the same); the
 * command's stdout and stderr tails as `<system-out>` and `<system-err>`.
 *
 * Written by hand: the text comes from commands and scorers and may hold characters XML 1.0 cannot
 * carry at all (most C0 controls, lone surrogates), which XML builders pass through into a file
 * parsers reject; here they are replaced by visible `\u{…}` escapes.
 * @module
 */
import type { DocumentCase, EvalDocument } from './eval-document.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot carry
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** `text` made safe as XML character data or an attribute value (quoted with `"`). */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join('');
}

function seconds(millis: number | undefined): string {
  return ((millis ?? 0) / 1000).toFixed(3);
}

function testCase(item: DocumentCase, classname: string): string {
  const lines = [
    `    <testcase${attributes({ name: item.externalKey, classname, time: seconds(item.command?.durationMillis) })}>`,
  ];
  if (item.state === 'FAIL') {
    const names = item.failures.map((failure) => `${failure.scorer}/${failure.metric}`).join(', ');
    const body = item.failures
      .map((failure) => `${failure.scorer}/${failure.metric}: ${failure.explanation ?? 'failed'}`)
      .join('\n');
    lines.push(
      `      <failure${attributes({ message: `failed: ${names}`, type: names })}>${xmlText(body)}</failure>`,
    );
  } else if (item.state === 'ERROR' && item.error !== undefined) {
    lines.push(
      `      <error${attributes({ message: item.error.message, type: item.error.type })}>${xmlText(item.error.message)}</error>`,
    );
  } else if (item.state === 'PENDING') {
    const pending = item.scores.filter((score) => score.status === 'pending').map((score) => score.scorer);
    lines.push(`      <skipped${attributes({ message: `checks pending: ${pending.join(', ')}` })}/>`);
  }
  if (item.command !== null) {
    if (item.command.stdout !== '')
      lines.push(`      <system-out>${xmlText(item.command.stdout)}</system-out>`);
    if (item.command.stderr !== '')
      lines.push(`      <system-err>${xmlText(item.command.stderr)}</system-err>`);
  }
  lines.push('    </testcase>');
  return lines.join('\n');
}

/** The JUnit XML report of `document`. */
export function junitReport(document: EvalDocument, timestamp: string): string {
  const { totals } = document;
  const time = seconds(document.cases.reduce((sum, item) => sum + (item.command?.durationMillis ?? 0), 0));
  const counts = {
    tests: totals.cases,
    failures: totals.failed,
    errors: totals.errored,
    skipped: totals.pending,
    time,
  };
  const suite = `${document.evalSet.slug} v${document.evalSet.version}`;
  const classname = `svc-eval.${document.evalSet.slug}`;
  const properties = [
    ['runUrl', document.runUrl],
    ['experimentId', document.experimentId],
    ['revision', document.revision ?? ''],
    ['complete', String(document.complete)],
  ]
    .map(([name, value]) => `      <property${attributes({ name: name!, value: value! })}/>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'svc eval', ...counts })}>`,
    `  <testsuite${attributes({ name: suite, ...counts, timestamp })}>`,
    '    <properties>',
    properties,
    '    </properties>',
    ...document.cases.map((item) => testCase(item, classname)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
