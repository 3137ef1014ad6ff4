// The `vorort` command line: one program whose commands come from the rooms that own them.
import { Command } from 'commander';
import { registerSandboxCommand } from '../sandbox/cli';
import { registerCoreCommands } from '../sync/cli';

const program = new Command('vorort')
  .description('Vorort: offline-first client for the organisation service of relief organisations')
  .showHelpAfterError();

registerCoreCommands(program);
registerSandboxCommand(program);

await program.parseAsync(process.argv);
