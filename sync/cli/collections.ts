// The sync's collections in words for people, in one place for every line the CLI prints: the
// areas' collections say theirs in the contract (COLLECTIONS); the few parts of a sync that are
// no area's collection say theirs here.
import { COLLECTIONS } from '../contract';
import { COURSE_MODULE } from '../pull/engine';

const OTHER_LABELS: Record<string, string> = {
  outbox: 'local writes sent',
  ueberpruefungen: 'checks',
  ehrungen: 'honours',
  helferstunden_history: 'volunteer hours, history',
};

/** The words for a collection; its own name when there are none yet. */
export function collectionLabel(collection: string): string {
  return (
    COLLECTIONS[collection]?.words ?? OTHER_LABELS[collection] ?? collection.replace(/_/g, ' ')
  );
}

/** Collections that make up the course module: an unlicensed module is said once, not per collection. */
export const COURSE_MODULE_COLLECTIONS: ReadonlySet<string> = new Set(COURSE_MODULE);
