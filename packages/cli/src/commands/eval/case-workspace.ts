/**
 * The private directory an agent command runs in, one per case: the case's files the agent may see
 * under `files/<role>/<name>`, and an empty `output/` for what it writes. Nothing else: not the
 * case's `expected`, not its evaluator-only files (`org_template`, `evaluator_reference`).
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PinnedFile } from '@svc-run/sdk/evals';

/** The case file roles an agent sees; the other roles are for evaluators only. */
export const AGENT_FILE_ROLES: ReadonlySet<string> = new Set([
  'source',
  'attached_template',
  'attached_reference',
  'original',
]);

/** A case's directory. */
export interface CaseWorkspace {
  /** The directory (mode 0700), the command's working directory. */
  directory: string;
  /** `output/`: `SVC_CASE_OUTPUT_DIR`. */
  outputDirectory: string;
  /** Removes the directory and everything in it. */
  remove(): Promise<void>;
}

/** Thrown when a case file cannot be placed (a name that is not a plain file name, a repeat). */
export class CaseFileError extends Error {
  override readonly name = 'CaseFileError';
}

/** The files of `files` the agent may see. */
export function agentFiles(files: readonly PinnedFile[]): PinnedFile[] {
  return files.filter((file) => AGENT_FILE_ROLES.has(file.role));
}

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/**
 * Makes a case's directory and writes the agent's files into it, each read with `read`.
 *
 * @throws {@link CaseFileError} for a file whose name is not a plain file name, or a second file of
 *   the same role and name; `read`'s errors as they are. The directory is removed first.
 */
export async function createCaseWorkspace(
  files: readonly PinnedFile[],
  read: (file: PinnedFile) => Promise<Uint8Array>,
): Promise<CaseWorkspace> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-case-'));
  const remove = () => rm(directory, { recursive: true, force: true });
  try {
    const outputDirectory = join(directory, 'output');
    await mkdir(outputDirectory, { mode: 0o700 });
    const placed = new Set<string>();
    for (const file of agentFiles(files)) {
      if (!isPlainName(file.name)) {
        throw new CaseFileError(
          `the case file ${JSON.stringify(file.name)} does not have a plain file name.`,
        );
      }
      const relative = `${file.role}/${file.name}`;
      if (placed.has(relative)) throw new CaseFileError(`the case has two files files/${relative}.`);
      placed.add(relative);
      await mkdir(join(directory, 'files', file.role), { recursive: true, mode: 0o700 });
      await writeFile(join(directory, 'files', file.role, file.name), await read(file), { mode: 0o600 });
    }
    return { directory, outputDirectory, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
