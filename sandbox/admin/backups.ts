// Backups of the whole service and restoring one, as an organisation's service restored from a
// backup: the data goes back, the clock does not, and ids handed out since the backup are handed
// out again (a database restored from a dump resets its auto-increment).
//   POST /backups              → { id }
//   POST /backups/:id/restore  → { restored: { put, removed } }
// A backup is a snapshot of the store (every record with its change time, the id high-waters,
// the settings), kept in memory until the sandbox stops; it shares the stored (frozen) records,
// so it costs little. A restore is one transaction, written through to the --data file, and the
// journal gets an entry per record that differs (put with touched=false, or remove).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AdminContext } from './context';
import { noSuchRecord } from './errors';
import { readBody } from './input';

const noBody = z.strictObject({});

export function registerBackupRoutes(scope: FastifyInstance, admin: AdminContext): void {
  let taken = 0;

  scope.post('/backups', async (request, reply) => {
    readBody(noBody, request.body);
    taken += 1;
    const id = String(taken);
    admin.backups.set(id, admin.api.store.snapshot());
    return reply.code(201).send({ id });
  });

  scope.post<{ Params: { id: string } }>('/backups/:id/restore', async (request) => {
    readBody(noBody, request.body);
    const snapshot = admin.backups.get(request.params.id);
    if (!snapshot) throw noSuchRecord(`There is no backup ${request.params.id}.`);
    const changes = admin.api.store.restore(snapshot);
    const removed = changes.filter((entry) => entry.after === undefined).length;
    return { restored: { put: changes.length - removed, removed } };
  });
}
