// The own volunteer-hours settings (`/helferstunden/einstellungen/selbst`): one document, and the
// only answer that tells which hour types are active. The service offers only active types for
// new entries; a type it no longer lists there was deactivated, and since few entries (often
// none of the own ones) use it, no other answer would say so.
import type { Relationship } from '../../api';
import { baseOf, helferstundenTyp } from '../../resources';
import type { PullContext } from '../context';
import { pullSingleton } from './whole';

export function pullHourSettings(ctx: PullContext) {
  return pullSingleton(ctx, 'helferstunden_einstellungen', async (signal) => {
    const { data, included } = await ctx.api.getHelferstundenEinstellungen({ signal });
    const types = included.filter((r) => r.type === 'helferstunden_typ');
    const active = activeTypeIds(data.relationships?.typen);
    ctx.writer.transaction(() => {
      ctx.writer.upsert(
        'helferstunden_typen',
        types.map((t) => helferstundenTyp.row(t, ctx.syncedAt)),
      );
      if (active) deactivateUnlisted(ctx, active);
    });
    return { type: data.type, id: data.id, base: baseOf(data), included };
  });
}

/**
 * The types the settings list as active (the relationship's ids: a listed type whose record
 * could not be read is still active). Null when the answer cannot tell: the list left out, or
 * empty, which an organisation that enters hours does not have; a broken answer must not
 * deactivate every type (DESIGN rules 9 and 14).
 */
function activeTypeIds(typen: Relationship | undefined): ReadonlySet<string> | null {
  const data = typen?.data;
  const listed = Array.isArray(data) ? data : data ? [data] : [];
  return listed.length ? new Set(listed.map((ref) => ref.id)) : null;
}

/** Marks the types held as active that the settings no longer list as not active. */
function deactivateUnlisted(ctx: PullContext, active: ReadonlySet<string>): void {
  const held = ctx.writer
    .statement('SELECT id FROM helferstunden_typen WHERE aktiv = 1')
    .pluck()
    .all() as string[];
  const update = ctx.writer.statement(
    'UPDATE helferstunden_typen SET aktiv = 0, synced_at = ? WHERE id = ?',
  );
  for (const id of held) if (!active.has(id)) update.run(ctx.syncedAt, id);
}
