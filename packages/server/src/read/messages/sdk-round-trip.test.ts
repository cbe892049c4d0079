/**
 * What the SDK writes, the server reads: every fixture with files, put in digest form by the SDK's
 * own scanner (`packages/sdk/src/media/scan`, imported from source: a test-only dependency on the
 * workspace's SDK), equals the test helper's digest form, and normalizes to the files the scanner
 * listed (keys, digests, types, names). Also the forms the fixtures lack: text over 64 KiB keeping
 * its prefix, a whole text data: URL, a value over 1 MiB.
 */
import { describe, expect, it } from 'vitest';
import { allMessageFixtures, attributeText } from '../../../../../fixtures/messages/index.js';
import { scanAttribute } from '../../../../sdk/src/media/scan/index.js';
import { scanStructured } from '../../../../sdk/src/media/scan/scan-structured.js';
import type { ListedFile } from '../../media/listed-files.js';
import { digestFormOf, toAnyValue } from './__fixtures__/digest-form.js';
import { filesOf } from './__fixtures__/records.js';
import { normalizeLogMessages } from './normalize-log-messages.js';
import { normalizeSpanMessages } from './normalize-span-messages.js';

interface Offered {
  key: string;
  sha256: string;
  size: number;
  contentType: string;
  name?: string;
}

function uploadAll() {
  const offered: Offered[] = [];
  const decide = (file: Offered) => {
    offered.push(file);
    return 'upload' as const;
  };
  const listed = (): ListedFile[] =>
    offered.map((file) => ({
      key: file.key,
      sha256: file.sha256,
      size: file.size,
      contentType: file.contentType,
      name: file.name ?? null,
      role: null,
      spanId: '00f067aa0ba902b7',
      record: 'span',
      listed: true,
    }));
  return { offered, decide, listed };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const withFiles = allMessageFixtures.filter((fixture) => fixture.files.length > 0);

describe('the SDK scanner’s digest form, read by the server', () => {
  it.each(withFiles.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { offered, decide, listed } = uploadAll();
    const recorded =
      fixture.attribute === 'body'
        ? scanStructured(fixture.value, 'body', decide).value
        : parsedOrText(
            scanAttribute(fixture.attribute, attributeText(fixture), decide, fixture.spanAttributes).value,
          );
    const helper = digestFormOf(fixture);
    expect(fixture.attribute === 'body' ? helper.body : parsedOrText(helper.text)).toEqual(recorded);

    const result =
      fixture.attribute === 'body'
        ? normalizeLogMessages(fixture.eventName!, toAnyValue(recorded), [], listed())
        : normalizeSpanMessages(
            [
              {
                key: fixture.attribute,
                value: { stringValue: typeof recorded === 'string' ? recorded : JSON.stringify(recorded) },
              },
            ],
            listed(),
          );
    expect(
      filesOf(result).map(({ key, sha256, size, contentType, name, form }) => ({
        key,
        sha256,
        size,
        contentType,
        name,
        form,
      })),
    ).toEqual(
      offered.map(({ key, sha256, size, contentType, name }) => ({
        key,
        sha256,
        size,
        contentType,
        name,
        form: 'digest',
      })),
    );
  });

  const scan = (name: string, text: string) => {
    const { offered, decide, listed } = uploadAll();
    const recorded = scanAttribute(name, text, decide).value;
    return {
      offered,
      result: normalizeSpanMessages([{ key: name, value: { stringValue: recorded } }], listed()),
    };
  };
  const longText = 'ab, '.repeat(20_000);

  it('reads text over 64 KiB that kept its prefix as that text, a prefix of the uploaded file', () => {
    const { offered, result } = scan(
      'gen_ai.input.messages',
      JSON.stringify([
        {
          role: 'user',
          parts: [{ type: 'blob', mime_type: 'text/plain', modality: 'document', content: longText }],
        },
      ]),
    );
    expect(result.messages[0]?.parts).toMatchObject([
      {
        type: 'text',
        text: longText.slice(0, 16 * 1024),
        prefixOf: { key: offered[0]!.key, sha256: offered[0]!.sha256, form: 'digest' },
      },
    ]);
  });

  it('reads a whole text data: URL over 64 KiB, and a value over 1 MiB, as the files the scanner listed', () => {
    const dataUrl = scan(
      'metadata.notes',
      `data:text/plain;base64,${Buffer.from(longText).toString('base64')}`,
    );
    expect(filesOf(dataUrl.result).map((file) => file.key)).toEqual(dataUrl.offered.map((file) => file.key));
    const large = scan(
      'gen_ai.input.messages',
      JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'a'.repeat(1_200_000) }] }]),
    );
    expect(large.offered.map((file) => [file.key, file.contentType])).toEqual([
      ['gen_ai.input.messages#', 'application/json'],
    ]);
    expect(large.result.messages[0]?.parts).toMatchObject([
      {
        type: 'text',
        prefixOf: { key: 'gen_ai.input.messages#', contentType: 'application/json', form: 'digest' },
      },
    ]);
  });
});
