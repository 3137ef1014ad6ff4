// The core's commands of the `vorort` command line.
import type { Command } from 'commander';
import { registerCallCommand } from './call-command';
import { registerExportCommand } from './export-command';
import { registerQueueCommand } from './queue-command';
import { registerStatusCommand } from './status-command';
import { registerSyncCommand } from './sync-command';

export function registerCoreCommands(program: Command): void {
  registerSyncCommand(program);
  registerStatusCommand(program);
  registerCallCommand(program);
  registerQueueCommand(program);
  registerExportCommand(program);
}
