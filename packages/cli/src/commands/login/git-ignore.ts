/**
 * Keeps a file out of git: when it lies in a git work tree and git does not ignore it yet, a line
 * naming it is added to the work tree's top-level `.gitignore`.
 * @module
 */
import { execFile } from 'node:child_process';
import { appendFile, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';

/** What {@link ignoreInGit} did. */
export type IgnoreOutcome =
  | { kind: 'not-in-work-tree' }
  | { kind: 'already-ignored' }
  | { kind: 'added'; gitignore: string; line: string };

function git(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout });
    });
  });
}

/**
 * Makes git ignore `file` (an absolute path). Without git, or outside a work tree, does nothing.
 */
export async function ignoreInGit(file: string): Promise<IgnoreOutcome> {
  const cwd = dirname(file);
  const top = await git(['rev-parse', '--show-toplevel'], cwd);
  if (top.code !== 0) return { kind: 'not-in-work-tree' };
  const root = top.stdout.trim();
  const checked = await git(['check-ignore', '--quiet', '--no-index', file], cwd);
  if (checked.code === 0) return { kind: 'already-ignored' };
  const gitignore = join(root, '.gitignore');
  // git names the top level by its real path: compare the file's real path with it.
  const real = join(await realpath(cwd), basename(file));
  const line = `/${relative(root, real).split(sep).join('/')}`;
  const existing = await readFile(gitignore, 'utf8').catch(() => '');
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendFile(gitignore, `${separator}# svc login: the service origin and key\n${line}\n`);
  return { kind: 'added', gitignore, line };
}
