// The `vorort` command line: one program whose commands come from the rooms that own them.
// Whatever goes wrong ends in one line on stderr and an exit code (sync/cli/exit-codes.ts), never
// in a stack trace (VORORT_DEBUG=1 shows one); a reader that closes the pipe early (`| head`)
// ends the output quietly.
import { Command, CommanderError } from 'commander';
import { registerSandboxCommand } from '../sandbox/cli';
import { registerCoreCommands } from '../sync/cli';
import { EXIT, describeFailure, exitCodeFor } from '../sync/cli/exit-codes';
import { quietOnBrokenPipe } from '../sync/cli/output';
import { watchParentShell } from './parent-shell';

quietOnBrokenPipe();
watchParentShell();

const program = new Command('vorort').description(
  'Vorort: offline-first client for the organisation service of relief organisations',
);

registerCoreCommands(program);
registerSandboxCommand(program);

/** Commander's errors as one line that names the command and where its options are explained. */
function oneLineErrors(command: Command, path: string): void {
  command.showHelpAfterError(false).configureOutput({
    outputError: (text, write) => {
      const message = text.trim().replace(/^error: /, '');
      write(`${path}: ${message} ("${path} --help" lists the options)\n`);
    },
  });
}

oneLineErrors(program, 'vorort');
program.exitOverride();
for (const command of program.commands) {
  oneLineErrors(command, `vorort ${command.name()}`);
  // The sandbox decides its own exit (it already exits 2 on bad options); the others throw here.
  if (command.name() !== 'sandbox') command.exitOverride();
}

process.on('uncaughtException', (error) => {
  process.stderr.write(`vorort: ${describeFailure(error)}\n`);
  process.exit(exitCodeFor(error));
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end with 0; `vorort` alone shows the help and ends with 2.
    const shown = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
    process.exitCode = shown ? EXIT.ok : EXIT.badInput;
  } else {
    process.stderr.write(`vorort: ${describeFailure(error)}\n`);
    process.exitCode = exitCodeFor(error);
  }
}
