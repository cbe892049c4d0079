/**
 * What an agent command wrote to `SVC_CASE_OUTPUT_DIR`, read after it exited: its output files,
 * the optional `summary.txt` and `manifest.json` (`{ "primary": "<file>" }`), and the execution
 * output the scorers see.
 * @module
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lookup } from 'mime-types';

/** Most output files a case may have (besides `summary.txt` and `manifest.json`). */
export const MAX_OUTPUT_FILES = 32;
/** Largest output file: 25 MiB, as a case file. */
export const MAX_OUTPUT_FILE_BYTES = 25 * 1024 * 1024;
/** Largest `summary.txt`. */
export const MAX_SUMMARY_BYTES = 64 * 1024;
/** Largest primary file whose text goes into the output (`text`). */
export const MAX_TEXT_BYTES = 256 * 1024;

/** An output file. */
export interface OutputFile {
  /** Its path below the output directory, with `/` separators. */
  name: string;
  path: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** The execution output of a case: what the scorers see (and the service keeps with `--content`). */
export interface CaseOutput {
  /** Every output file, by name. */
  files: { name: string; contentType: string; size: number; sha256: string }[];
  /** The primary file: `manifest.json`'s `primary`, or the only output file. */
  primary?: string;
  /** The primary file's text, when it is text (UTF-8) of at most 256 KiB. */
  text?: string;
  /** `summary.txt`. */
  summary?: string;
}

/** Why a case's outputs are not an output. */
export interface OutputProblem {
  type: 'NoOutput' | 'InvalidOutput';
  message: string;
}

/** Read outputs: the files and the execution output, or a problem. */
export type CaseOutputs = { output: CaseOutput; files: OutputFile[] } | { problem: OutputProblem };

function invalid(message: string): { problem: OutputProblem } {
  return { problem: { type: 'InvalidOutput', message } };
}

function isText(contentType: string): boolean {
  return (
    contentType.startsWith('text/') ||
    /^application\/(?:json|xml|yaml|x-yaml|javascript|toml)$/.test(contentType) ||
    /\+(?:json|xml)$/.test(contentType)
  );
}

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

async function walk(
  directory: string,
  prefix: string,
  found: { name: string; path: string }[],
): Promise<{ link: string } | undefined> {
  for (const entry of (await readdir(directory, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const path = join(directory, entry.name);
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      const link = await walk(path, `${name}/`, found);
      if (link !== undefined) return link;
    } else if (entry.isFile()) found.push({ name, path });
    else if (entry.isSymbolicLink()) return { link: name };
  }
  return undefined;
}

/**
 * Reads the output directory. Errors (as a problem, never thrown): nothing written (`NoOutput`); a
 * symbolic link, more than 32 files, a file over 25 MiB, a `summary.txt` over 64 KiB or not UTF-8,
 * a `manifest.json` that is not `{ "primary": "<an output file>" }` (`InvalidOutput`).
 */
export async function readCaseOutputs(outputDirectory: string): Promise<CaseOutputs> {
  const found: { name: string; path: string }[] = [];
  const link = await walk(outputDirectory, '', found);
  if (link !== undefined) {
    return invalid(`output/${link.link} is a symbolic link: write the files themselves.`);
  }
  let summary: string | undefined;
  let manifest: unknown;
  const files: OutputFile[] = [];
  for (const { name, path } of found) {
    const info = await lstat(path);
    if (name === 'summary.txt') {
      if (info.size > MAX_SUMMARY_BYTES) {
        return invalid(`summary.txt is ${info.size} bytes, over the ${MAX_SUMMARY_BYTES} bytes allowed.`);
      }
      summary = decodeUtf8(await readFile(path));
      if (summary === undefined) return invalid('summary.txt is not UTF-8 text.');
      continue;
    }
    if (name === 'manifest.json') {
      if (info.size > MAX_SUMMARY_BYTES) return invalid('manifest.json is over 64 KiB.');
      try {
        manifest = JSON.parse(await readFile(path, 'utf8'));
      } catch {
        return invalid('manifest.json is not JSON.');
      }
      continue;
    }
    if (info.size > MAX_OUTPUT_FILE_BYTES) {
      return invalid(`output/${name} is ${info.size} bytes, over the 25 MiB an output file may have.`);
    }
    if (files.length === MAX_OUTPUT_FILES) {
      return invalid(`the command wrote more than ${MAX_OUTPUT_FILES} output files.`);
    }
    const bytes = await readFile(path);
    files.push({
      name,
      path,
      contentType: lookup(name) || 'application/octet-stream',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  if (files.length === 0 && summary === undefined) {
    return {
      problem: {
        type: 'NoOutput',
        message:
          'the command wrote nothing to SVC_CASE_OUTPUT_DIR (an output file or summary.txt is needed).',
      },
    };
  }
  let primary: string | undefined;
  if (manifest !== undefined) {
    const named = (manifest as { primary?: unknown } | null)?.primary;
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
      return invalid('manifest.json must be an object such as { "primary": "report.md" }.');
    }
    if (named !== undefined) {
      if (typeof named !== 'string' || !files.some((file) => file.name === named)) {
        return invalid('manifest.json names as primary a file the command did not write.');
      }
      primary = named;
    }
  }
  if (primary === undefined && files.length === 1) primary = files[0]!.name;
  const output: CaseOutput = {
    files: files.map(({ name, contentType, size, sha256 }) => ({ name, contentType, size, sha256 })),
  };
  if (primary !== undefined) {
    output.primary = primary;
    const file = files.find((candidate) => candidate.name === primary)!;
    if (isText(file.contentType) && file.size <= MAX_TEXT_BYTES) {
      const text = decodeUtf8(await readFile(file.path));
      if (text !== undefined) output.text = text;
    }
  }
  if (summary !== undefined) output.summary = summary;
  return { output, files };
}
