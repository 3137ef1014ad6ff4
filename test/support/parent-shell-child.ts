// The child of test/parent-shell.test.ts: watches its parent shell as `npx vorort` does, says
// "ready", answers "alive" to each line on stdin, and says which signal ended it. It runs until
// a signal, as a server does (stdin ends when the shell does).
import { watchParentShell } from '../../bin/parent-shell';

watchParentShell();
const running = setInterval(() => {}, 60_000);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    clearInterval(running);
    process.stdout.write(`${signal}\n`);
    process.exit(0);
  });
process.stdin.setEncoding('utf8').on('data', () => process.stdout.write('alive\n'));
process.stdout.write('ready\n');
