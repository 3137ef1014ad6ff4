// Forms (formulare) offered for the own person and for courses: plain JSON lists, replaced per
// object, and skipped when the list is the one applied last time (outside the periodic full runs).
import { hash } from 'node:crypto';
import { format } from 'date-fns';
import { forEachItem, isPeriodicFullRun, runCollection, type PullContext } from '../context';
import { appliedDigests, recordDigest } from './whole';

/** Forms of the own person and of every course that has not ended. */
export function pullForms(ctx: PullContext) {
  return runCollection(ctx, 'formulare', async (state) => {
    const useDigests = !isPeriodicFullRun(ctx, state);
    const today = format(ctx.options.today(), 'yyyy-MM-dd');
    const courseIds = ctx.replica.sqlite
      .prepare('SELECT id FROM courses WHERE last_date >= ? ORDER BY id')
      .pluck()
      .all(today) as string[];
    const objects: { typ: 'u' | 'k'; id: string }[] = [
      ...(ctx.selfId ? [{ typ: 'u' as const, id: ctx.selfId }] : []),
      ...courseIds.map((id) => ({ typ: 'k' as const, id })),
    ];
    let records = 0;
    const identify = (object: { typ: string; id: string }) => ({
      type: object.typ === 'u' ? 'user' : 'course',
      id: object.id,
    });
    await forEachItem(ctx, 'formulare', objects, identify, async (object) => {
      const forms = await ctx.api.listFormulare(object.typ, object.id, { signal: ctx.signal });
      const collection = `formulare:${object.typ}`;
      const digest = hash('sha256', JSON.stringify(forms), 'base64url');
      const applied = useDigests
        ? appliedDigests(
            ctx,
            collection,
            'formulare',
            `objekt_typ = '${object.typ}' AND objekt_id = applied.parent`,
          )
        : undefined;
      if (applied?.get(object.id) === digest) return;
      ctx.writer.transaction(() => {
        ctx.writer
          .statement('DELETE FROM formulare WHERE objekt_typ = ? AND objekt_id = ?')
          .run(object.typ, object.id);
        ctx.writer.upsert(
          'formulare',
          forms.map((form, position) => ({
            objekt_typ: object.typ,
            objekt_id: object.id,
            position,
            titel: form.titel,
            aktion: JSON.stringify(form.aktion ?? null),
            synced_at: ctx.syncedAt,
          })),
        );
        recordDigest(ctx, `${collection}:${object.id}`, digest, forms.length);
      });
      records += forms.length;
    });
    return { records, deleted: 0, fullScan: true };
  });
}
