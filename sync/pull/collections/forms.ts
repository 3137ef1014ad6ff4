// Forms (formulare) offered for the own person and for courses: plain JSON lists, replaced per
// owner, for the owners the sync's plan names, and skipped when the list is the one applied last time.
import { hash } from 'node:crypto';
import { forEachItem, isGone, runCollection, type PullContext } from '../context';
import { confirm, markTried } from '../freshness';
import { appliedDigests, recordDigest } from './whole';

/** A form list's owner: the own person (u) or a course (k); its rotation id is `u:<id>` or `k:<id>`. */
export interface FormOwner {
  typ: 'u' | 'k';
  id: string;
}

export const formOwnerKey = (owner: FormOwner) => `${owner.typ}:${owner.id}`;

/** Forms of the planned owners (the own person, courses that have not ended), each confirmed. */
export function pullForms(ctx: PullContext, owners: readonly FormOwner[]) {
  return runCollection(ctx, 'formulare', async () => {
    let records = 0;
    const confirmed: string[] = [];
    // Owners whose requests started: noted as asked for, in one transaction at the end.
    const started: string[] = [];
    const identify = (owner: FormOwner) => ({
      type: owner.typ === 'u' ? 'user' : 'course',
      id: owner.id,
    });
    try {
      await forEachItem(ctx, 'formulare', owners, identify, async (owner) => {
        if (ctx.budget.overspent()) return ctx.budget.defer('forms');
        started.push(formOwnerKey(owner));
        // The rotation applies each list whole: anything amiss heals within its bound.
        try {
          records += await refreshForms(ctx, owner, false);
        } catch (error) {
          if (!isGone(error)) throw error;
          // The owner is gone from the service (a course deleted since it was listed): so are
          // its forms. The course itself leaves with the next course list.
          ctx.writer.transaction(() =>
            ctx.writer
              .statement('DELETE FROM formulare WHERE objekt_typ = ? AND objekt_id = ?')
              .run(owner.typ, owner.id),
          );
        }
        confirmed.push(formOwnerKey(owner));
      });
    } finally {
      const at = ctx.options.now().toISOString();
      markTried(ctx.replica.sqlite, 'forms', started, at);
      confirm(ctx.replica.sqlite, 'forms', confirmed, at);
    }
    return { records, deleted: 0, fullScan: false };
  });
}

/** One owner's forms, replaced unless the list is the one applied last time; answers the forms written. */
export async function refreshForms(
  ctx: PullContext,
  owner: FormOwner,
  useDigests: boolean,
): Promise<number> {
  const forms = await ctx.api.listFormulare(owner.typ, owner.id, { signal: ctx.signal });
  const collection = `formulare:${owner.typ}`;
  const digest = hash('sha256', JSON.stringify(forms), 'base64url');
  const applied = useDigests
    ? appliedDigests(
        ctx,
        collection,
        'formulare',
        `objekt_typ = '${owner.typ}' AND objekt_id = applied.parent`,
      )
    : undefined;
  if (applied?.get(owner.id) === digest) return 0;
  ctx.writer.transaction(() => {
    ctx.writer
      .statement('DELETE FROM formulare WHERE objekt_typ = ? AND objekt_id = ?')
      .run(owner.typ, owner.id);
    ctx.writer.upsert(
      'formulare',
      forms.map((form, position) => ({
        objekt_typ: owner.typ,
        objekt_id: owner.id,
        position,
        titel: form.titel,
        aktion: JSON.stringify(form.aktion ?? null),
        synced_at: ctx.syncedAt,
      })),
    );
    recordDigest(ctx, `${collection}:${owner.id}`, digest, forms.length);
  });
  return forms.length;
}
