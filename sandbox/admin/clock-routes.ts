// The admin interface's view of time and lists: the sandbox's clock (read it, move it forward)
// and paging of every list, switched on and off while the sandbox runs.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AdminContext } from './context';
import { conflict } from './errors';
import { readBody } from './input';

const moveClock = z.union([
  z.strictObject({ advanceMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  z.strictObject({ to: z.iso.datetime({ offset: true }) }),
]);

const paging = z.strictObject({
  pageSize: z.number().int().positive().max(100_000).nullable(),
});

function clockState(admin: AdminContext) {
  return { now: new Date(admin.clock.now()).toISOString(), offsetMs: admin.clock.offsetMs };
}

export function registerClockRoutes(scope: FastifyInstance, admin: AdminContext): void {
  scope.get('/clock', async () => clockState(admin));

  scope.post('/clock', async (request) => {
    const body = readBody(moveClock, request.body);
    if ('advanceMs' in body) {
      admin.clock.advance(body.advanceMs);
    } else {
      const target = Date.parse(body.to);
      const now = admin.clock.now();
      if (target < now) {
        throw conflict(
          `The clock moves forward only: ${body.to} lies before its now, ${new Date(now).toISOString()}.`,
        );
      }
      admin.clock.advance(target - now);
    }
    return clockState(admin);
  });
}

export function registerPagingRoutes(scope: FastifyInstance, admin: AdminContext): void {
  scope.get('/paging', async () => ({ pageSize: admin.api.pageSize ?? null }));

  scope.put('/paging', async (request) => {
    const { pageSize } = readBody(paging, request.body);
    admin.api.pageSize = pageSize ?? undefined;
    return { pageSize };
  });
}
