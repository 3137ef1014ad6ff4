// `vorort status`: what the replica holds, without touching the network.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openReplica } from '../db/open';
import { syncStatus } from '../queries/status';
import { EXIT } from './exit-codes';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Show what the replica holds: records per type, watermarks, the last sync')
    .requiredOption('--db <file>', 'the replica (SQLite file)')
    .option('--json', 'one JSON object')
    .action(async (options: { db: string; json?: boolean }) => {
      if (!existsSync(options.db)) {
        process.stderr.write(
          `vorort status: no replica at ${options.db} (run "vorort sync" first)\n`,
        );
        process.exitCode = EXIT.badInput;
        return;
      }
      const replica = openReplica(options.db);
      try {
        const status = syncStatus(replica.sqlite);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(status)}\n`);
          return;
        }
        const last = status.lastSync
          ? `${status.lastSync.at} (${status.lastSync.ok ? 'ok' : 'with errors'})`
          : 'never';
        process.stdout.write(
          `Replica ${options.db}, profile ${status.profile ?? '-'}, last sync ${last}\n`,
        );
        for (const [type, count] of Object.entries(status.counts))
          process.stdout.write(`  ${type.padEnd(28)} ${count}\n`);
        for (const c of status.collections) {
          const note = c.unavailable
            ? `unavailable: ${c.unavailable}`
            : c.lastError
              ? `error: ${c.lastError}`
              : `watermark ${c.watermark ?? '-'}`;
          process.stdout.write(`  [${c.collection}] ${note}\n`);
        }
      } finally {
        await replica.close();
      }
    });
}
