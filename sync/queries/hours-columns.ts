// Everyone's hours as columns in memory (issue 23: the office's hours view on 100,000 entries): a
// filter's count and sum and its totals per type and per person in one pass over typed arrays
// (about a millisecond), where SQLite needs two or three passes over its indexes (about 100 ms).
// The columns are read a block at a time between other work, so the host's event loop stays free,
// and read again once the table changed as the connection's table-change recorder counts it: its
// own writes, and those of another connection that the host notes there (the sync worker's
// tables, everything after a worker that failed midway). Until they are current, hours.ts asks
// SQLite as before.
import { tableChangesOf } from '../db/table-changes';
import type { Sqlite } from '../db/sqlite';

/** The filter of hours.list and hours.totals (hours.ts HoursFilter), days as `YYYY-MM-DD`. */
export interface ColumnFilter {
  userId?: string | undefined;
  /** The signed-in user: their entries created here have no user yet (the service sets it). */
  selfId?: string | null;
  from?: string | undefined;
  until?: string | undefined;
  freigegeben?: boolean | undefined;
  anlassId?: string | undefined;
  typId?: string | undefined;
}

export interface Sums {
  stunden: number;
  entries: number;
}

/** What hours.totals assembles its answer from, whichever way it was counted. */
export interface HoursAggregates extends Sums {
  /** Per type id (null: none); every type that has an entry in the filter. */
  byType: Map<string | null, Sums>;
  /** The people with most hours first (then by id), at most `limit`. */
  top: (Sums & { userId: string })[];
  /** How many people have entries in the filter. */
  persons: number;
  /** The signed-in user's own entries (with a person set) in the filter. */
  own: Sums;
  /** The own entries created here, whose person the service sets when it takes them. */
  unassigned: Sums;
}

/** Rows read per block: about 10 ms of the event loop each. */
const BLOCK = 4_000;
/** `day` of an entry without `von`, and of one whose `von` does not begin with a plain day. */
const NO_DAY = -1;
const ODD_DAY = -2;
const FREIGEGEBEN = 1;
const NOT_FREIGEGEBEN = 2;
/** Created here without a person (the signed-in user's, see hoursWhere). */
const CREATED_UNASSIGNED = 4;
/** A `von` whose order against a day (and that day's `T99`) is its day's: the day, then T0–T8 or nothing. */
const PLAIN_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|T[0-8])/;

interface Columns {
  size: number;
  user: Int32Array;
  day: Int32Array;
  typ: Int32Array;
  anlass: Int32Array;
  flags: Uint8Array;
  stunden: Float64Array;
  /** `von` of the entries whose day is ODD_DAY, compared as text as SQLite does. */
  oddVon: Map<number, string>;
  users: string[];
  types: (string | null)[];
  userIndex: Map<string, number>;
  typeIndex: Map<string, number>;
  anlassIndex: Map<string, number>;
}

const columnsOf = new WeakMap<Sqlite, HoursColumns>();

/** The columns of a connection's replica (one per connection). */
export function hoursColumnsOf(sqlite: Sqlite): HoursColumns {
  let columns = columnsOf.get(sqlite);
  if (!columns) {
    columns = new HoursColumns(sqlite);
    columnsOf.set(sqlite, columns);
  }
  return columns;
}

export class HoursColumns {
  private columns: Columns | null = null;
  private builtAt = '';
  private building: Promise<void> | null = null;
  private last: { columns: Columns; key: string; sums: Accumulated } | null = null;

  constructor(private readonly sqlite: Sqlite) {}

  /**
   * The aggregates of a filter when the columns are current, else null (and they are read again
   * in the background): the caller counts with SQLite meanwhile.
   */
  aggregates(filter: ColumnFilter, limit: number): HoursAggregates | null {
    const columns = this.current();
    return (
      columns && aggregate(columns, this.accumulated(columns, filter), filter.selfId ?? null, limit)
    );
  }

  /** A filter's count and sum (hours.list's), or null as aggregates. */
  sums(filter: ColumnFilter): Sums | null {
    const columns = this.current();
    if (!columns) return null;
    const { stunden, entries } = this.accumulated(columns, filter);
    return { stunden, entries };
  }

  /** The sums of a filter; the last filter's kept (a view asks its list's count and its totals). */
  private accumulated(columns: Columns, filter: ColumnFilter): Accumulated {
    const key = JSON.stringify([
      filter.userId,
      filter.selfId,
      filter.from,
      filter.until,
      filter.freigegeben,
      filter.anlassId,
      filter.typId,
    ]);
    if (this.last?.columns !== columns || this.last.key !== key)
      this.last = { columns, key, sums: accumulate(columns, filter) };
    return this.last.sums;
  }

  /** Resolves once a read begun by now (or one begun here, when none runs) has ended. */
  async ready(): Promise<void> {
    if (!this.current()) await this.building;
  }

  private key(): string | null {
    const recorder = tableChangesOf(this.sqlite);
    if (!recorder || !this.sqlite.open) return null;
    return String(recorder.version('helferstunden'));
  }

  private current(): Columns | null {
    const key = this.key();
    if (key === null) return null;
    if (this.columns && this.builtAt === key) return this.columns;
    // A transaction of this connection may still be undone: read once it has ended.
    if (!this.building && !this.sqlite.inTransaction) {
      this.building = this.read(key)
        .catch(() => {
          // A replica closed or replaced meanwhile: SQLite answers until the next read.
        })
        .finally(() => {
          this.building = null;
        });
    }
    return null;
  }

  /** Reads every entry a block at a time; drops what it read when the table changed meanwhile. */
  private async read(key: string): Promise<void> {
    const statement = this.sqlite
      .prepare(
        `SELECT rowid, user_id, von, typ_id, anlass_id, freigegeben, stunden, local_state
         FROM helferstunden WHERE rowid > ? ORDER BY rowid LIMIT ${BLOCK}`,
      )
      .raw();
    const estimate = Number(
      this.sqlite.prepare('SELECT max(rowid) FROM helferstunden').pluck().get() ?? 0,
    );
    const builder = new ColumnsBuilder(Math.max(estimate, BLOCK));
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.key() !== key || this.sqlite.inTransaction) return;
      const rows = statement.all(after) as unknown[][];
      for (const row of rows) builder.add(row);
      if (rows.length < BLOCK) break;
      after = rows[rows.length - 1]![0] as number;
    }
    this.columns = builder.done();
    this.builtAt = key;
  }
}

class ColumnsBuilder {
  private size = 0;
  private user: Int32Array;
  private day: Int32Array;
  private typ: Int32Array;
  private anlass: Int32Array;
  private flags: Uint8Array;
  private stunden: Float64Array;
  private readonly oddVon = new Map<number, string>();
  private readonly users: string[] = [];
  private readonly types: (string | null)[] = [];
  private readonly userIndex = new Map<string, number>();
  private readonly typeIndex = new Map<string, number>();
  private readonly anlassIndex = new Map<string, number>();

  constructor(capacity: number) {
    this.user = new Int32Array(capacity);
    this.day = new Int32Array(capacity);
    this.typ = new Int32Array(capacity);
    this.anlass = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.stunden = new Float64Array(capacity);
  }

  add([, userId, von, typId, anlassId, freigegeben, stunden, localState]: unknown[]): void {
    if (localState === 'deleted') return;
    if (this.size === this.user.length) this.grow();
    const at = this.size++;
    this.user[at] = userId === null ? -1 : indexOf(this.userIndex, String(userId), this.users);
    this.typ[at] = typId === null ? -1 : indexOf(this.typeIndex, String(typId), this.types);
    this.anlass[at] = anlassId === null ? -1 : indexOf(this.anlassIndex, String(anlassId));
    this.day[at] = dayOf(von);
    if (this.day[at] === ODD_DAY) this.oddVon.set(at, String(von));
    this.flags[at] =
      (freigegeben === 1 ? FREIGEGEBEN : freigegeben === 0 ? NOT_FREIGEGEBEN : 0) |
      (userId === null && localState === 'created' ? CREATED_UNASSIGNED : 0);
    // As SQLite's sum: null adds nothing, text its number.
    this.stunden[at] =
      typeof stunden === 'number'
        ? stunden
        : stunden === null
          ? 0
          : Number.parseFloat(String(stunden)) || 0;
  }

  done(): Columns {
    const { size, oddVon, users, types, userIndex, typeIndex, anlassIndex } = this;
    return {
      size,
      user: this.user,
      day: this.day,
      typ: this.typ,
      anlass: this.anlass,
      flags: this.flags,
      stunden: this.stunden,
      oddVon,
      users,
      types,
      userIndex,
      typeIndex,
      anlassIndex,
    };
  }

  private grow(): void {
    const wider = <T extends Int32Array | Uint8Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(array.length * 2);
      next.set(array);
      return next;
    };
    this.user = wider(this.user);
    this.day = wider(this.day);
    this.typ = wider(this.typ);
    this.anlass = wider(this.anlass);
    this.flags = wider(this.flags);
    this.stunden = wider(this.stunden);
  }
}

function indexOf<T>(index: Map<string, number>, key: string, list?: T[]): number {
  let at = index.get(key);
  if (at === undefined) {
    at = index.size;
    index.set(key, at);
    list?.push(key as T);
  }
  return at;
}

function dayOf(von: unknown): number {
  if (von === null || von === undefined) return NO_DAY;
  const match = PLAIN_DAY.exec(String(von));
  return match ? Number(`${match[1]}${match[2]}${match[3]}`) : ODD_DAY;
}

/** `YYYY-MM-DD` as the number dayOf gives it. */
const dayNumber = (day: string) => Number(day.replaceAll('-', ''));

/** A filter's sums over every entry: all, per type index (+1; 0: none), per person index. */
interface Accumulated extends Sums {
  byTypeHours: Float64Array;
  byTypeEntries: Int32Array;
  byUserHours: Float64Array;
  byUserEntries: Int32Array;
  unassigned: Sums;
}

/** Matches every value of a column (a filter that does not narrow it). */
const ANY = -3;

function accumulate(columns: Columns, filter: ColumnFilter): Accumulated {
  const { size, user, day, typ, anlass, flags, stunden, oddVon } = columns;
  // An id the columns do not know matches no entry (-2: no index, and not null's -1).
  const wanted = (index: Map<string, number>, id: string | undefined) =>
    id === undefined ? ANY : (index.get(id) ?? -2);
  const mine = filter.userId !== undefined && filter.userId === (filter.selfId ?? null);
  const userAt = wanted(columns.userIndex, filter.userId);
  const typAt = wanted(columns.typeIndex, filter.typId);
  const anlassAt = wanted(columns.anlassIndex, filter.anlassId);
  const period = Boolean(filter.from || filter.until);
  const from = filter.from ? dayNumber(filter.from) : 0;
  const until = filter.until ? dayNumber(filter.until) : Number.MAX_SAFE_INTEGER;
  const fromText = filter.from ?? '';
  const untilText = filter.until ? `${filter.until}T99` : '\uffff';
  const approval =
    filter.freigegeben === undefined ? 0 : filter.freigegeben ? FREIGEGEBEN : NOT_FREIGEGEBEN;

  const byUserHours = new Float64Array(columns.users.length);
  const byUserEntries = new Int32Array(columns.users.length);
  const byTypeHours = new Float64Array(columns.types.length + 1);
  const byTypeEntries = new Int32Array(columns.types.length + 1);
  const unassigned = { stunden: 0, entries: 0 };
  let all = 0;
  let entries = 0;
  for (let at = 0; at < size; at++) {
    const person = user[at]!;
    const flag = flags[at]!;
    if (userAt !== ANY && person !== userAt && !(mine && flag & CREATED_UNASSIGNED)) continue;
    if (anlassAt !== ANY && anlass[at] !== anlassAt) continue;
    if (typAt !== ANY && typ[at] !== typAt) continue;
    if (approval !== 0 && !(flag & approval)) continue;
    if (period) {
      const entryDay = day[at]!;
      if (entryDay === NO_DAY) continue;
      if (entryDay === ODD_DAY) {
        const von = oddVon.get(at)!;
        if (von < fromText || von >= untilText) continue;
      } else if (entryDay < from || entryDay > until) continue;
    }
    const hours = stunden[at]!;
    all += hours;
    entries += 1;
    const type = typ[at]! + 1;
    byTypeHours[type]! += hours;
    byTypeEntries[type]! += 1;
    if (person >= 0) {
      byUserHours[person]! += hours;
      byUserEntries[person]! += 1;
    } else if (flag & CREATED_UNASSIGNED) {
      unassigned.stunden += hours;
      unassigned.entries += 1;
    }
  }
  return {
    stunden: all,
    entries,
    byTypeHours,
    byTypeEntries,
    byUserHours,
    byUserEntries,
    unassigned,
  };
}

function aggregate(
  columns: Columns,
  sums: Accumulated,
  selfId: string | null,
  limit: number,
): HoursAggregates {
  const { byTypeHours, byTypeEntries, byUserHours, byUserEntries, unassigned } = sums;
  const byType = new Map<string | null, Sums>();
  for (let type = 0; type < byTypeEntries.length; type++)
    if (byTypeEntries[type]! > 0)
      byType.set(type === 0 ? null : columns.types[type - 1]!, {
        stunden: byTypeHours[type]!,
        entries: byTypeEntries[type]!,
      });
  const people: number[] = [];
  for (let person = 0; person < byUserEntries.length; person++)
    if (byUserEntries[person]! > 0) people.push(person);
  const { users } = columns;
  const selfAt = selfId === null ? -2 : (columns.userIndex.get(selfId) ?? -2);
  return {
    stunden: sums.stunden,
    entries: sums.entries,
    byType,
    top: topPeople(people, byUserHours, users, limit).map((person) => ({
      userId: users[person]!,
      stunden: byUserHours[person]!,
      entries: byUserEntries[person]!,
    })),
    persons: people.length,
    own:
      selfAt >= 0
        ? { stunden: byUserHours[selfAt]!, entries: byUserEntries[selfAt]! }
        : { stunden: 0, entries: 0 },
    unassigned: { ...unassigned },
  };
}

/** The first `limit` people by hours (most first), then by id as SQLite orders text. */
function topPeople(
  people: number[],
  hours: Float64Array,
  users: string[],
  limit: number,
): number[] {
  const before = (a: number, b: number) =>
    hours[b]! - hours[a]! || (users[a]! < users[b]! ? -1 : users[a]! > users[b]! ? 1 : 0);
  // Only those that can still be among the first: at least the limit-th most hours.
  if (people.length > limit * 4) {
    const sorted = Float64Array.from(people, (person) => hours[person]!).sort();
    const floor = sorted[sorted.length - limit]!;
    people = people.filter((person) => hours[person]! >= floor);
  }
  return people.sort(before).slice(0, limit);
}
