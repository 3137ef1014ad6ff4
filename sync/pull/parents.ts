// The per-parent collections' one loop (a course's participants, a person's checks, a client's
// participants, ...): the planned parents refreshed with bounded concurrency, one parent's failure
// costing only itself, a parent the service no longer has (404) removed here too, and no parent
// started once the sync has sent more than its budget.
import type { TableName } from '../db/schema';
import { forEachItem, isGone, isSkip, runCollection, type PullContext } from './context';
import { markTried, type RotationScope } from './freshness';
import { recordItemFailure } from './quarantine';

/** This many refusals (403/423) before any success stop the loop: the area itself is refused. */
const AREA_REFUSED_AFTER = 3;

export interface ParentRefresh {
  records: number;
  deleted: number;
}

export interface ParentCollection {
  collection: string;
  /** The rotation the parents belong to: each is noted as asked for when its request starts. */
  scope: RotationScope;
  /** The parent's resource type (quarantine entries of failed items name it). */
  type: string;
  /** Where the parent lives: it is deleted there when the service answers 404. */
  table: TableName;
  refresh: (id: string) => Promise<ParentRefresh>;
}

/**
 * Refreshes the collection for `ids`, as one collection of the summary. Answers the parents whose
 * list came, and whether the whole collection was refused (403 or 423: nothing to wait for).
 */
export async function pullParents(
  ctx: PullContext,
  spec: ParentCollection,
  ids: readonly string[],
): Promise<{ done: Set<string>; refused: boolean }> {
  const done = new Set<string>();
  const result = await runCollection(ctx, spec.collection, async () => {
    let records = 0;
    let deleted = 0;
    let finished = 0;
    const refused: { id: string; error: unknown }[] = [];
    // The parents whose requests started: noted as asked for, in one transaction at the end.
    const started: string[] = [];
    try {
      await forEachItem(
        ctx,
        spec.collection,
        ids,
        (id) => ({ type: spec.type, id }),
        async (id) => {
          if (ctx.budget.overspent()) return ctx.budget.defer(spec.collection);
          started.push(id);
          try {
            const outcome = await spec.refresh(id);
            records += outcome.records;
            deleted += outcome.deleted;
            done.add(id);
          } catch (error) {
            if (isSkip(error)) {
              // One parent refused (a course the trainer no longer teaches) costs that parent only;
              // refusals before any success are the area itself: the collection is skipped.
              refused.push({ id, error });
              if (done.size === 0 && refused.length >= AREA_REFUSED_AFTER) throw error;
              return;
            }
            if (!isGone(error)) throw error;
            deleted += removeGoneParent(ctx, spec.table, id);
          }
          finished += 1;
          ctx.progress({ collection: spec.collection, done: finished, total: ids.length });
        },
      );
    } finally {
      markTried(ctx.replica.sqlite, spec.scope, started, ctx.options.now().toISOString());
    }
    // Refused and nothing read: the account may not read this collection at all.
    const [first] = refused;
    if (first && done.size === 0) throw first.error;
    for (const { id, error } of refused)
      recordItemFailure(ctx, spec.collection, { type: spec.type, id }, error);
    return { records, deleted, fullScan: false };
  });
  return { done, refused: result.skipped !== undefined };
}

/** The parent was deleted on the service (404): so is it here, with what belongs to it. */
export function removeGoneParent(ctx: PullContext, table: TableName, id: string): number {
  return ctx.writer.transaction(() => ctx.writer.deleteWhereIn(table, 'id', [id]));
}
