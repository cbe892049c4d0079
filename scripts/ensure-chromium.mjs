// Run by the test command before the tests: makes sure Chromium is there for the browser tests.
// When `chromium` is missing and this user may install packages (root, or passwordless sudo), it
// runs `apt-get update && apt-get install -y chromium`; otherwise it prints how to install it and
// goes on, and the browser tests then fail with that message (they never skip).
import { spawnSync } from 'node:child_process';
import { CHROMIUM_MISSING, findChromium } from './chromium.mjs';

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** The command prefix that runs apt-get as root, or undefined when this user cannot. */
function asRoot() {
  if (process.getuid?.() === 0) return [];
  if (run('sudo', ['-n', 'true']).ok) return ['sudo', '-n'];
  return undefined;
}

const found = findChromium();
if (found !== undefined) {
  console.log(`ensure-chromium: ${found}`);
} else {
  const prefix = asRoot();
  const hasApt = run('sh', ['-c', 'command -v apt-get']).ok;
  if (prefix === undefined || !hasApt) {
    console.warn(`ensure-chromium: cannot install Chromium here. ${CHROMIUM_MISSING}`);
  } else {
    console.log('ensure-chromium: installing Debian’s chromium with apt-get (once per machine)…');
    const [command, ...rest] = [...prefix, 'apt-get'];
    const update = run(command, [...rest, 'update']);
    const install = update.ok ? run(command, [...rest, 'install', '-y', 'chromium']) : update;
    const path = findChromium();
    if (path === undefined) {
      console.error(install.output.split('\n').slice(-20).join('\n'));
      console.warn(`ensure-chromium: apt-get did not install Chromium. ${CHROMIUM_MISSING}`);
    } else {
      console.log(`ensure-chromium: installed ${path}`);
    }
  }
}
