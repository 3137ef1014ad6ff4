// The in-memory records of one resource type: a Map by id, the sorted list that `all()` hands
// out (kept until a write, then patched by merging instead of re-sorting everything), and one
// relationship index per relationship name, built on first use and maintained on every write,
// whose sorted lists per target are kept until a write touches that target (a course's
// participations are read for every course a list includes).
import { compareIds, idNumber, sortById } from './ids';
import type { Relationship, StoredResource } from './store';

/** The records (by their id) whose relationship points at one target, and them in id order. */
interface Sources {
  byId: Map<string, StoredResource>;
  sorted: readonly StoredResource[] | null;
}

/** Target id → the records whose relationship points at it. */
type RelationshipIndex = Map<string, Sources>;

function targetIds(relationship: Relationship | undefined): string[] {
  if (!relationship) return [];
  if (Array.isArray(relationship)) return relationship.map((ref) => ref.id);
  return [relationship.id];
}

export class TypeTable {
  private readonly byId = new Map<string, StoredResource>();
  private sorted: readonly StoredResource[] | null = null;
  /** Ids written since `sorted` was built. */
  private readonly touched = new Set<string>();
  private readonly indexes = new Map<string, RelationshipIndex>();
  /** The highest id number ever stored (see Store.nextId). */
  highWater = 0;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredResource | undefined {
    return this.byId.get(id);
  }

  /** Replaces or inserts; returns the previous record. */
  set(record: StoredResource): StoredResource | undefined {
    const previous = this.byId.get(record.id);
    this.byId.set(record.id, record);
    for (const [name, index] of this.indexes) {
      if (previous) this.unindex(index, name, previous);
      this.index(index, name, record);
    }
    this.noteWrite(record.id);
    const number = idNumber(record.id);
    if (number !== null && number > this.highWater) this.highWater = number;
    return previous;
  }

  /** Removes; returns the removed record. */
  delete(id: string): StoredResource | undefined {
    const previous = this.byId.get(id);
    if (!previous) return undefined;
    this.byId.delete(id);
    for (const [name, index] of this.indexes) this.unindex(index, name, previous);
    this.noteWrite(id);
    return previous;
  }

  all(): readonly StoredResource[] {
    if (this.sorted === null) {
      this.sorted = Object.freeze(sortById(this.byId.values()));
    } else if (this.touched.size > 0) {
      this.sorted = Object.freeze(this.patchedSortedList());
    }
    this.touched.clear();
    return this.sorted;
  }

  related(name: string, targetId: string): readonly StoredResource[] {
    let index = this.indexes.get(name);
    if (!index) {
      index = new Map();
      for (const record of this.byId.values()) this.index(index, name, record);
      this.indexes.set(name, index);
    }
    const sources = index.get(targetId);
    if (!sources) return [];
    sources.sorted ??= Object.freeze(sortById(sources.byId.values()));
    return sources.sorted;
  }

  private noteWrite(id: string): void {
    if (this.sorted === null) return;
    this.touched.add(id);
    // Past a quarter of the table, sorting afresh is cheaper than tracking and merging.
    if (this.touched.size * 4 > this.byId.size) {
      this.sorted = null;
      this.touched.clear();
    }
  }

  /** The previous sorted list minus touched records, merged with their current versions. */
  private patchedSortedList(): StoredResource[] {
    const kept = (this.sorted ?? []).filter((record) => !this.touched.has(record.id));
    const current: StoredResource[] = [];
    for (const id of this.touched) {
      const record = this.byId.get(id);
      if (record) current.push(record);
    }
    const added = sortById(current);
    const merged: StoredResource[] = new Array(kept.length + added.length);
    let k = 0;
    let a = 0;
    for (let m = 0; m < merged.length; m++) {
      const takeAdded =
        k >= kept.length || (a < added.length && compareIds(added[a]!.id, kept[k]!.id) < 0);
      merged[m] = takeAdded ? added[a++]! : kept[k++]!;
    }
    return merged;
  }

  private index(index: RelationshipIndex, name: string, record: StoredResource): void {
    for (const targetId of targetIds(record.relationships[name])) {
      let sources = index.get(targetId);
      if (!sources) {
        sources = { byId: new Map(), sorted: null };
        index.set(targetId, sources);
      }
      sources.byId.set(record.id, record);
      sources.sorted = null;
    }
  }

  private unindex(index: RelationshipIndex, name: string, record: StoredResource): void {
    for (const targetId of targetIds(record.relationships[name])) {
      const sources = index.get(targetId);
      if (!sources) continue;
      sources.byId.delete(record.id);
      sources.sorted = null;
      if (sources.byId.size === 0) index.delete(targetId);
    }
  }
}
