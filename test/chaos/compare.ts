// The service's state (the sandbox's store, read directly) against the model: every record the
// run created exactly once (found by its key) unless deleted, with its final values and
// references; every change to an existing record there; every deletion gone.
import type { ResourceType, StoredResource, Store } from '../../sandbox/data/store';
import type { ChaosModel, ModelRecord } from './generator';

/** The attribute that carries a created record's key (`key` or `key~tag`). */
const KEY_FIELD: Record<string, string> = {
  user: 'nachname',
  kalender: 'name',
  helferstunden: 'bemerkung',
  helferstunden_anlass: 'beschreibung',
  course: 'title',
  participation: 'last_name',
  customfield: 'name',
};

export interface Comparison {
  lost: number;
  duplicated: number;
  excluded: number;
  problems: string[];
}

function sameValue(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'number') return Number(actual) === expected;
  if (typeof expected === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(expected))
    return typeof actual === 'string' && Date.parse(actual) === Date.parse(expected);
  return JSON.stringify(expected) === JSON.stringify(actual);
}

function relatedIds(resource: StoredResource, name: string): string[] {
  const value = resource.relationships[name];
  if (!value) return [];
  return (Array.isArray(value) ? value : [value]).map((ref) => ref.id).sort();
}

export function compareWithService(
  store: Store,
  model: ChaosModel,
  unverifiable: Set<ModelRecord>,
): Comparison {
  const result: Comparison = { lost: 0, duplicated: 0, excluded: 0, problems: [] };
  const problem = (record: ModelRecord, text: string) => {
    if (result.problems.length < 40)
      result.problems.push(`${record.type} ${record.key} (${record.handle}): ${text}`);
  };
  const excluded = (record: ModelRecord, seen = new Set<ModelRecord>()): boolean => {
    if (unverifiable.has(record)) return true;
    if (seen.has(record)) return false;
    seen.add(record);
    for (const other of record.dependsOn) if (excluded(other, seen)) return true;
    return false;
  };

  // Records created in the run, by key: how often the service holds each.
  const byKey = new Map<string, StoredResource[]>();
  for (const [type, field] of Object.entries(KEY_FIELD)) {
    for (const resource of store.all(type as ResourceType)) {
      const value = resource.attributes[field];
      if (typeof value !== 'string' || !value.startsWith(`CH${model.seed}-`)) continue;
      const key = `${type}:${value.split('~')[0]}`;
      byKey.set(key, [...(byKey.get(key) ?? []), resource]);
    }
  }
  const found = new Map<ModelRecord, StoredResource | undefined>();
  for (const record of model.records) {
    if (record.created) {
      const copies = byKey.get(`${record.type}:${record.key}`) ?? [];
      if (copies.length > 1) {
        result.duplicated += 1;
        problem(record, `created ${copies.length} times (${copies.map((c) => c.id).join(', ')})`);
      }
      const copy = record.fixedId ? store.get('user', record.fixedId) : copies[0];
      found.set(record, copy);
    } else {
      found.set(record, store.get(record.type as ResourceType, record.handle));
    }
  }
  const idOf = (target: { id: string } | { record: ModelRecord } | ModelRecord) =>
    'record' in target
      ? found.get(target.record)?.id
      : 'handle' in target
        ? found.get(target)?.id
        : target.id;

  for (const record of model.records) {
    if (excluded(record)) {
      result.excluded += 1;
      continue;
    }
    const actual = found.get(record);
    const issues: string[] = [];
    if (record.deleted) {
      if (actual) issues.push(`deleted, but the service still holds ${actual.id}`);
    } else if (!actual) {
      if (record.created || record.attributes) issues.push('missing on the service');
    } else {
      for (const [name, value] of Object.entries(record.attributes)) {
        if (!sameValue(value, actual.attributes[name]))
          issues.push(
            `${name} is ${JSON.stringify(actual.attributes[name])}, expected ${JSON.stringify(value)}`,
          );
      }
      for (const [name, target] of Object.entries(record.relationships)) {
        const expected = target ? idOf(target) : undefined;
        const ids = relatedIds(actual, name);
        if (expected === undefined || !ids.includes(expected))
          issues.push(
            `${name} is [${ids.join(',')}], expected ${expected ?? 'a record that is missing'}`,
          );
      }
      if (record.course) {
        const expected = idOf(record.course);
        const ids = relatedIds(actual, 'course');
        if (expected === undefined || ids[0] !== expected)
          issues.push(`course is ${ids[0]}, expected ${expected ?? 'a course that is missing'}`);
      }
    }
    if (issues.length > 0) {
      result.lost += 1;
      problem(record, issues.join('; '));
    }
  }
  // An unverifiable occasion may exist at most once.
  for (const record of unverifiable) {
    const copies = byKey.get(`${record.type}:${record.key}`) ?? [];
    if (copies.length > 1) {
      result.duplicated += 1;
      problem(record, `unverifiable occasion created ${copies.length} times`);
    }
  }
  return result;
}
