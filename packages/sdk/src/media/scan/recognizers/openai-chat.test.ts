import { describe, expect, it } from 'vitest';
import { findDigestHolders } from '../find-digest-holders.js';
import { PCM16_CONTENT_TYPE } from '../media/pcm-content-type.js';
import { scanAttribute } from '../scan-attribute.js';
import {
  digestMembers,
  PDF_BYTES,
  PNG_BASE64,
  PNG_BYTES,
  recordingDecide,
  sha256Hex,
  WAV_BYTES,
} from '../test-support.js';

const WAV = WAV_BYTES.toString('base64');
const PDF = PDF_BYTES.toString('base64');

describe('OpenAI chat parts', () => {
  it('reads image_url data URLs, input_audio and file parts in reading order', () => {
    const value =
      `{"model":"gpt-4o","messages":[{"role":"user","content":[` +
      `{"type":"image_url","image_url":{"url":"data:image/png;base64,${PNG_BASE64}","detail":"high"}},` +
      `{"type":"input_audio","input_audio":{"data":"${WAV}","format":"wav"}},` +
      `{"type":"file","file":{"file_data":"data:application/pdf;base64,${PDF}","filename":"q3.pdf"}}]}]}`;
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('input.value', value, decide);
    expect(result.value).toBe(
      `{"model":"gpt-4o","messages":[{"role":"user","content":[` +
        `{"type":"image_url","image_url":{${digestMembers(PNG_BYTES)},"detail":"high"}},` +
        `{"type":"input_audio","input_audio":{${digestMembers(WAV_BYTES)},"format":"wav"}},` +
        `{"type":"file","file":{${digestMembers(PDF_BYTES)},"filename":"q3.pdf"}}]}]}`,
    );
    expect(
      offered.map(({ key, contentType, modality, name }) => ({ key, contentType, modality, name })),
    ).toEqual([
      {
        key: 'input.value#/messages/0/content/0',
        contentType: 'image/png',
        modality: 'image',
        name: undefined,
      },
      {
        key: 'input.value#/messages/0/content/1',
        contentType: 'audio/wav',
        modality: 'audio',
        name: undefined,
      },
      {
        key: 'input.value#/messages/0/content/2',
        contentType: 'application/pdf',
        modality: 'document',
        name: 'q3.pdf',
      },
    ]);
  });

  it('lists pcm16 input audio as raw PCM at 24 kHz', () => {
    const value = `[{"type":"input_audio","input_audio":{"data":"AAABAAIA","format":"pcm16"}}]`;
    const { decide, offered } = recordingDecide();
    scanAttribute('gen_ai.input.messages', value, decide);
    expect(offered[0]?.contentType).toBe(PCM16_CONTENT_TYPE);
  });

  it('reads a file part with bare base64 file_data, typed by its file name', () => {
    const value = `[{"type":"file","file":{"filename":"report.pdf","file_data":"${PDF}"}}]`;
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', value, decide);
    expect(result.value).toBe(
      `[{"type":"file","file":{"filename":"report.pdf",${digestMembers(PDF_BYTES)}}}]`,
    );
    expect(offered[0]).toMatchObject({ contentType: 'application/pdf', name: 'report.pdf' });
  });

  it('keys assistant audio at the message, typed from its bytes, and still reads the other members', () => {
    const value = `{"choices":[{"message":{"role":"assistant","content":null,"audio":{"id":"audio_1","data":"${WAV}","expires_at":1,"transcript":"hi"}}}]}`;
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('output.value', value, decide);
    expect(result.value).toBe(
      `{"choices":[{"message":{"role":"assistant","content":null,"audio":{"id":"audio_1",${digestMembers(WAV_BYTES)},"expires_at":1,"transcript":"hi"}}}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType])).toEqual([
      ['output.value#/choices/0/message', 'audio/wav'],
    ]);
  });

  it('takes headerless assistant audio for raw pcm16', () => {
    const value = `{"role":"assistant","audio":{"data":"AAABAAIAAwA="}}`;
    const { decide, offered } = recordingDecide();
    scanAttribute('output.value', value, decide);
    expect(offered[0]?.contentType).toBe(PCM16_CONTENT_TYPE);
  });

  it('leaves https image URLs and file ids alone', () => {
    const value =
      '[{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}},{"type":"file","file":{"file_id":"file-abc123"}}]';
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide)).toEqual({ value, changed: false });
    expect(offered).toEqual([]);
  });

  it('does not read an image_url that is not base64', () => {
    const value = '[{"type":"image_url","image_url":{"url":"data:image/png;base64,not base64!"}}]';
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('restores each digest form with the bytes in the form OpenAI takes', () => {
    const recorded = [
      {
        type: 'image_url',
        image_url: { sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length, detail: 'low' },
      },
      {
        type: 'input_audio',
        input_audio: { sha256: sha256Hex(WAV_BYTES), size: WAV_BYTES.length, format: 'wav' },
      },
      { type: 'file', file: { sha256: sha256Hex(PDF_BYTES), size: PDF_BYTES.length, filename: 'q3.pdf' } },
      { role: 'assistant', audio: { id: 'a', sha256: sha256Hex(WAV_BYTES), size: WAV_BYTES.length } },
    ];
    const holders = findDigestHolders(recorded);
    expect(holders.map((holder) => [holder.pointer, holder.form, holder.contentType])).toEqual([
      ['/0', 'openai.image_url', undefined],
      ['/1', 'openai.input_audio', 'audio/wav'],
      ['/2', 'openai.file', undefined],
      ['/3', 'openai.assistant_audio', undefined],
    ]);
    expect(holders[0]!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_BASE64}`, detail: 'low' },
    });
    expect(holders[1]!.restore(WAV_BYTES, 'audio/wav')).toEqual({
      type: 'input_audio',
      input_audio: { data: WAV, format: 'wav' },
    });
    expect(holders[2]!.restore(PDF_BYTES, 'application/pdf')).toEqual({
      type: 'file',
      file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'q3.pdf' },
    });
    expect(holders[3]!.restore(WAV_BYTES, 'audio/wav')).toEqual({
      role: 'assistant',
      audio: { id: 'a', data: WAV },
    });
    expect(recorded[0]).toEqual({
      type: 'image_url',
      image_url: { sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length, detail: 'low' },
    });
  });
});
