// The chaos test's operations and the model of what the service must hold afterwards. A seeded
// generator picks among all 20 write commands, on records the replica had after the first pull
// and on records created during the run (temporary ids, chains: create -> change -> reference ->
// delete). Every value it writes carries a tag unique to its operation, and every record created
// carries a key in a field that identifies it on the service (`key` or `key~tag` after a
// change), so the expected state follows from the operations alone. A command the core refuses
// is counted and left out of the model; commands the service would refuse are not generated.
import type BetterSqlite3 from 'better-sqlite3';
import { seededRandom } from '../../sandbox/http/faults';

/** A record the model knows: its expected attributes and relationships on the service. */
export interface ModelRecord {
  type: string;
  /** The id to name it by in commands: a service id, or the temporary id of a record created here. */
  handle: string;
  /** Created in this run; found on the service by `key` (see identityOf), else by `handle`. */
  created: boolean;
  key: string;
  /** Created by a PUT with a user id: the service keeps that id. */
  fixedId?: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { id: string } | { record: ModelRecord } | null>;
  deleted: boolean;
  cancelled: boolean;
  /** Records created here that operations on this one wait for (their ids appear in its requests). */
  dependsOn: Set<ModelRecord>;
  course?: ModelRecord | { id: string };
  userId?: string;
}

export interface Operation {
  index: number;
  name: string;
  args: Record<string, unknown>;
  /** Applies the operation to the model once the core accepted it; gets the receipt's id. */
  accepted: (id: string) => void;
}

interface ExistingCourse {
  record: ModelRecord;
  /** Places left (Infinity without a maximum). */
  room: number;
}

const rel = (type: string, id: string) => ({ data: { type, id } });

export class ChaosModel {
  readonly records: ModelRecord[] = [];
  private readonly random: () => number;
  private counter = 0;
  private readonly users: ModelRecord[] = [];
  private readonly hourUsers: ModelRecord[] = [];
  private readonly trainings: ModelRecord[] = [];
  private readonly calendars: ModelRecord[] = [];
  private readonly hours: ModelRecord[] = [];
  private readonly occasions: ModelRecord[] = [];
  private readonly notifications: ModelRecord[] = [];
  private readonly courses: ExistingCourse[] = [];
  private readonly participations: ModelRecord[] = [];
  private readonly fields: ModelRecord[] = [];
  private readonly hourTypes: string[];
  private readonly courseTypes: string[];
  private readonly existingMemberNumbers: { user: ModelRecord; mitgliednr: string }[] = [];
  /** Counts per command of the operations generated. */
  readonly generated = new Map<string, number>();

  constructor(
    sqlite: BetterSqlite3.Database,
    readonly seed: number,
    private readonly today: Date,
  ) {
    this.random = seededRandom(seed * 7919 + 17);
    const rows = <T>(sql: string) => sqlite.prepare(sql).all() as T[];
    const existing = (type: string, id: string, extra: Partial<ModelRecord> = {}) => {
      const record = this.record(type, id, false, id);
      Object.assign(record, extra);
      return record;
    };
    for (const u of rows<{ id: string; status: string; mitgliednr: string | null }>(
      'SELECT id, status, mitgliednr FROM users ORDER BY id',
    )) {
      const record = existing('user', u.id);
      this.users.push(record);
      if (u.status !== 'gesperrt') this.hourUsers.push(record);
      if (u.mitgliednr) this.existingMemberNumbers.push({ user: record, mitgliednr: u.mitgliednr });
    }
    for (const t of rows<{ id: string; user_id: string }>(
      'SELECT id, user_id FROM ausbildungen ORDER BY id',
    ))
      this.trainings.push(existing('ausbildung', t.id, { userId: t.user_id }));
    for (const k of rows<{ id: string }>('SELECT id FROM kalender ORDER BY id'))
      this.calendars.push(existing('kalender', k.id));
    const blocked = new Set(
      rows<{ id: string }>("SELECT id FROM users WHERE status = 'gesperrt'").map((u) => u.id),
    );
    for (const h of rows<{ id: string; user_id: string }>(
      'SELECT id, user_id FROM helferstunden ORDER BY CAST(id AS INTEGER)',
    ))
      if (!blocked.has(h.user_id)) this.hours.push(existing('helferstunden', h.id));
    for (const a of rows<{ id: string }>(
      'SELECT id FROM helferstunden_anlaesse ORDER BY CAST(id AS INTEGER)',
    ))
      this.occasions.push(existing('helferstunden_anlass', a.id));
    for (const n of rows<{ id: string; gelesen: number }>(
      'SELECT id, gelesen FROM benachrichtigungen ORDER BY id',
    ))
      this.notifications.push(existing('benachrichtigung', n.id, { attributes: {} }));
    const active = new Map(
      rows<{ course_id: string; n: number }>(
        "SELECT course_id, count(*) AS n FROM participations WHERE status <> 'cancelled' GROUP BY course_id",
      ).map((r) => [r.course_id, r.n]),
    );
    for (const c of rows<{ id: string; max_participants: number | null }>(
      "SELECT id, max_participants FROM courses WHERE status IN ('draft', 'ready') ORDER BY id",
    )) {
      const max = Number(c.max_participants ?? 0);
      this.courses.push({
        record: existing('course', c.id),
        room: max > 0 ? max - (active.get(c.id) ?? 0) : Infinity,
      });
    }
    for (const p of rows<{ id: string; course_id: string }>(
      "SELECT id, course_id FROM participations WHERE status <> 'cancelled' ORDER BY CAST(id AS INTEGER)",
    ))
      this.participations.push(existing('participation', p.id, { course: { id: p.course_id } }));
    // A required field without a value refuses every change (the service checks the whole field).
    for (const f of rows<{ id: string; course_id: string }>(
      `SELECT id, course_id FROM customfields
        WHERE NOT (coalesce(json_extract(base, '$.attributes.required'), 0) = 1
                   AND coalesce(json_extract(base, '$.attributes.value'), '') = '')
        ORDER BY CAST(id AS INTEGER)`,
    ))
      this.fields.push(existing('customfield', f.id, { course: { id: f.course_id } }));
    this.hourTypes = rows<{ id: string }>(
      'SELECT id FROM helferstunden_typen WHERE aktiv = 1 ORDER BY id',
    ).map((t) => t.id);
    this.courseTypes = rows<{ id: string }>('SELECT id FROM course_types ORDER BY id').map(
      (t) => t.id,
    );
  }

  private record(type: string, handle: string, created: boolean, key: string): ModelRecord {
    const record: ModelRecord = {
      type,
      handle,
      created,
      key,
      attributes: {},
      relationships: {},
      deleted: false,
      cancelled: false,
      dependsOn: new Set(),
    };
    this.records.push(record);
    return record;
  }

  private pick<T>(list: readonly T[]): T | undefined {
    return list.length ? list[Math.floor(this.random() * list.length)] : undefined;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  /** Prefers records created in this run (chains), else any. */
  private pickLive(list: readonly ModelRecord[], pCreated = 0.6): ModelRecord | undefined {
    const live = list.filter((r) => !r.deleted && !r.cancelled);
    const created = live.filter((r) => r.created);
    return this.chance(pCreated) && created.length ? this.pick(created) : this.pick(live);
  }

  private dateTime(daysAhead: number, hour: number): string {
    const day = new Date(this.today.getTime() + daysAhead * 86_400_000).toISOString().slice(0, 10);
    return `${day}T${String(hour).padStart(2, '0')}:00:00+00:00`;
  }

  private date(daysAhead: number): string {
    return new Date(this.today.getTime() + daysAhead * 86_400_000).toISOString().slice(0, 10);
  }

  private keyOf(prefix: string): string {
    this.counter += 1;
    return `CH${this.seed}-${prefix}${this.counter}`;
  }

  /** A value in a field that also identifies the record: `key` or `key~tag`. */
  private keyed(record: ModelRecord, tag: string): string {
    return record.created ? `${record.key}~${tag}` : `${tag}`;
  }

  private dependOn(record: ModelRecord, other: ModelRecord | undefined): void {
    if (other?.created) record.dependsOn.add(other);
  }

  private target(record: ModelRecord): { id: string } | { record: ModelRecord } {
    return record.created ? { record } : { id: record.handle };
  }

  /** The next operation, or undefined when the chosen command has nothing to work on (pick again). */
  next(index: number): Operation | undefined {
    const tag = `t${this.seed}-${index}`;
    const choices: [number, () => Operation | undefined][] = [
      [4, () => this.userCreate(index, tag)],
      [6, () => this.userUpdate(index, tag)],
      [4, () => this.userUpsert(index, tag)],
      [2, () => this.trainingDelete(index)],
      [3, () => this.calendarCreate(index, tag)],
      [2, () => this.calendarDelete(index)],
      [8, () => this.hoursCreate(index)],
      [8, () => this.hoursUpdate(index, tag)],
      [3, () => this.hoursDelete(index)],
      [4, () => this.occasionCreate(index)],
      [4, () => this.occasionUpdate(index, tag)],
      [3, () => this.notificationUpdate(index)],
      [1, () => this.notificationDelete(index)],
      [3, () => this.courseCreate(index, tag)],
      [7, () => this.participationCreate(index, tag)],
      [6, () => this.participationUpdate(index, tag)],
      [3, () => this.participationCancel(index, tag)],
      [4, () => this.fieldCreate(index, tag)],
      [4, () => this.fieldUpdate(index, tag)],
      [2, () => this.fieldDelete(index)],
    ];
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let draw = this.random() * total;
    for (const [weight, make] of choices) {
      draw -= weight;
      if (draw < 0) {
        const op = make();
        if (op) this.generated.set(op.name, (this.generated.get(op.name) ?? 0) + 1);
        return op;
      }
    }
    return undefined;
  }

  private userCreate(index: number, tag: string): Operation {
    const key = this.keyOf('u');
    const attributes = { vorname: 'Chaos', nachname: key, bemerkung: tag, beruf: tag };
    return {
      index,
      name: 'user.create',
      args: { attributes },
      accepted: (id) => {
        const record = this.record('user', id, true, key);
        record.attributes = { ...attributes };
        this.users.push(record);
        this.hourUsers.push(record);
      },
    };
  }

  private userUpdate(index: number, tag: string): Operation | undefined {
    const user = this.pickLive(this.users, 0.5);
    if (!user) return undefined;
    const attributes: Record<string, unknown> = { bemerkung: tag };
    if (this.chance(0.5)) attributes.funktion = tag;
    if (user.created && this.chance(0.4)) attributes.nachname = this.keyed(user, tag);
    return {
      index,
      name: 'user.update',
      args: { id: user.handle, attributes },
      accepted: () => Object.assign(user.attributes, attributes),
    };
  }

  private userUpsert(index: number, tag: string): Operation | undefined {
    const draw = this.random();
    if (draw < 0.3) {
      // An existing person by user id: an update by PUT.
      const user = this.pick(this.users.filter((u) => !u.created));
      if (!user) return undefined;
      const attributes = { bemerkung: tag };
      return {
        index,
        name: 'user.upsert',
        args: { identifierName: 'user_id', identifierValue: user.handle, attributes },
        accepted: () => Object.assign(user.attributes, attributes),
      };
    }
    if (draw < 0.45 && this.existingMemberNumbers.length) {
      const { user, mitgliednr } = this.pick(this.existingMemberNumbers)!;
      const attributes = { beruf: tag };
      return {
        index,
        name: 'user.upsert',
        args: { identifierName: 'mitgliednr', identifierValue: mitgliednr, attributes },
        accepted: () => Object.assign(user.attributes, attributes),
      };
    }
    const key = this.keyOf('p');
    const attributes = { vorname: 'Chaos', nachname: key, bemerkung: tag };
    if (draw < 0.7) {
      // A new person by a user id nobody has: the service creates it with that id.
      const id = Array.from({ length: 32 }, () => Math.floor(this.random() * 16).toString(16)).join(
        '',
      );
      return {
        index,
        name: 'user.upsert',
        args: { identifierName: 'user_id', identifierValue: id, attributes },
        accepted: (handle) => {
          const record = this.record('user', handle, true, key);
          record.fixedId = id;
          record.attributes = { ...attributes };
          this.users.push(record);
          this.hourUsers.push(record);
        },
      };
    }
    const mitgliednr = `${key}-m`;
    return {
      index,
      name: 'user.upsert',
      args: { identifierName: 'mitgliednr', identifierValue: mitgliednr, attributes },
      accepted: (handle) => {
        const record = this.record('user', handle, true, key);
        record.attributes = { ...attributes, mitgliednr };
        this.users.push(record);
        this.hourUsers.push(record);
      },
    };
  }

  private trainingDelete(index: number): Operation | undefined {
    const training = this.pickLive(this.trainings);
    if (!training) return undefined;
    return {
      index,
      name: 'ausbildung.delete',
      args: { userId: training.userId, id: training.handle },
      accepted: () => {
        training.deleted = true;
      },
    };
  }

  private calendarCreate(index: number, tag: string): Operation {
    const key = this.keyOf('k');
    const attributes = { name: key, farbe: '#12ab34', beschreibung: tag };
    return {
      index,
      name: 'kalender.create',
      args: { attributes },
      accepted: (id) => {
        const record = this.record('kalender', id, true, key);
        record.attributes = { ...attributes };
        this.calendars.push(record);
      },
    };
  }

  private calendarDelete(index: number): Operation | undefined {
    const calendar = this.pickLive(this.calendars, 0.8);
    if (!calendar) return undefined;
    return {
      index,
      name: 'kalender.delete',
      args: { id: calendar.handle },
      accepted: () => {
        calendar.deleted = true;
      },
    };
  }

  private hoursCreate(index: number): Operation | undefined {
    const occasion = this.pickLive(this.occasions, 0.6);
    const typ = this.pick(this.hourTypes);
    if (!occasion || !typ) return undefined;
    const key = this.keyOf('h');
    const day = Math.floor(this.random() * 30) + 1;
    const attributes: Record<string, unknown> = {
      von: this.dateTime(day, 8),
      stunden: 1 + Math.floor(this.random() * 16) / 4,
      bemerkung: key,
      freies_zahlenfeld: index,
    };
    if (this.chance(0.4)) attributes.bis = this.dateTime(day, 12);
    if (this.chance(0.3)) attributes.anfahrt_km = Math.floor(this.random() * 50);
    const relationships: Record<string, unknown> = {
      anlass: rel('helferstunden_anlass', occasion.handle),
      typ: rel('helferstunden_typ', typ),
    };
    const user = this.chance(0.5) ? this.pickLive(this.hourUsers, 0.5) : undefined;
    if (user) relationships.user = rel('user', user.handle);
    return {
      index,
      name: 'helferstunden.create',
      args: { attributes, relationships },
      accepted: (id) => {
        const record = this.record('helferstunden', id, true, key);
        record.attributes = { ...attributes };
        record.relationships = {
          anlass: this.target(occasion),
          typ: { id: typ },
          ...(user ? { user: this.target(user) } : {}),
        };
        this.dependOn(record, occasion);
        this.dependOn(record, user);
        this.hours.push(record);
      },
    };
  }

  private hoursUpdate(index: number, tag: string): Operation | undefined {
    const hour = this.pickLive(this.hours, 0.6);
    if (!hour) return undefined;
    const attributes: Record<string, unknown> = { bemerkung: this.keyed(hour, tag) };
    if (this.chance(0.5)) attributes.stunden = 1 + (index % 40) / 4;
    if (this.chance(0.3)) attributes.freigegeben = this.chance(0.5);
    const occasion = this.chance(0.25) ? this.pickLive(this.occasions, 0.6) : undefined;
    const args: Record<string, unknown> = { id: hour.handle, attributes };
    if (occasion) args.relationships = { anlass: rel('helferstunden_anlass', occasion.handle) };
    return {
      index,
      name: 'helferstunden.update',
      args,
      accepted: () => {
        Object.assign(hour.attributes, attributes);
        if (occasion) {
          hour.relationships.anlass = this.target(occasion);
          this.dependOn(hour, occasion);
        }
      },
    };
  }

  private hoursDelete(index: number): Operation | undefined {
    const hour = this.pickLive(this.hours, 0.6);
    if (!hour) return undefined;
    return {
      index,
      name: 'helferstunden.delete',
      args: { id: hour.handle },
      accepted: () => {
        hour.deleted = true;
      },
    };
  }

  private occasionCreate(index: number): Operation {
    const key = this.keyOf('a');
    const attributes = {
      typ: this.chance(0.5) ? 'sonstiges' : 'kurs',
      beschreibung: key,
      datum: this.date(Math.floor(this.random() * 30)),
    };
    return {
      index,
      name: 'helferstunden_anlass.create',
      args: { attributes },
      accepted: (id) => {
        const record = this.record('helferstunden_anlass', id, true, key);
        record.attributes = { ...attributes };
        this.occasions.push(record);
      },
    };
  }

  private occasionUpdate(index: number, tag: string): Operation | undefined {
    const occasion = this.pickLive(this.occasions, 0.6);
    if (!occasion) return undefined;
    const attributes: Record<string, unknown> = { beschreibung: this.keyed(occasion, tag) };
    if (this.chance(0.4)) attributes.datum = this.date(index % 60);
    return {
      index,
      name: 'helferstunden_anlass.update',
      args: { id: occasion.handle, attributes },
      accepted: () => Object.assign(occasion.attributes, attributes),
    };
  }

  private notificationUpdate(index: number): Operation | undefined {
    const notification = this.pickLive(this.notifications);
    if (!notification) return undefined;
    const gelesen = this.chance(0.5);
    return {
      index,
      name: 'benachrichtigung.update',
      args: { id: notification.handle, attributes: { gelesen } },
      accepted: () => {
        notification.attributes.gelesen = gelesen;
      },
    };
  }

  private notificationDelete(index: number): Operation | undefined {
    const notification = this.pickLive(this.notifications);
    if (!notification) return undefined;
    return {
      index,
      name: 'benachrichtigung.delete',
      args: { id: notification.handle },
      accepted: () => {
        notification.deleted = true;
      },
    };
  }

  private courseCreate(index: number, tag: string): Operation | undefined {
    const courseType = this.pick(this.courseTypes);
    if (!courseType) return undefined;
    const key = this.keyOf('c');
    const day = 10 + Math.floor(this.random() * 60);
    const attributes = { title: key, comment: tag, max_participants: 0, price: index % 100 };
    const relationships: Record<string, unknown> = {
      course_type: rel('course_type', courseType),
      dates: { data: [{ type: 'course_date', id: 'new-1' }] },
    };
    const included: unknown[] = [
      {
        type: 'course_date',
        id: 'new-1',
        attributes: { from: this.dateTime(day, 9), to: this.dateTime(day, 16) },
      },
    ];
    const trainer = this.chance(0.4) ? this.pickLive(this.users, 0.5) : undefined;
    if (trainer) relationships.trainers = { data: [{ type: 'user', id: trainer.handle }] };
    if (this.chance(0.3)) {
      relationships.location = { data: { type: 'address', id: 'new-2' } };
      included.push({
        type: 'address',
        id: 'new-2',
        attributes: { city: 'Chaosstadt', street: tag },
      });
    }
    return {
      index,
      name: 'course.create',
      args: { attributes, relationships, included },
      accepted: (id) => {
        const record = this.record('course', id, true, key);
        record.attributes = { ...attributes };
        record.relationships = {
          course_type: { id: courseType },
          ...(trainer ? { trainers: this.target(trainer) } : {}),
        };
        this.dependOn(record, trainer);
        this.courses.push({ record, room: Infinity });
      },
    };
  }

  private pickCourse(): ExistingCourse | undefined {
    const open = this.courses.filter((c) => c.room >= 1);
    const created = open.filter((c) => c.record.created);
    return this.chance(0.7) && created.length ? this.pick(created) : this.pick(open);
  }

  private courseRef(course: ModelRecord): ModelRecord | { id: string } {
    return course.created ? course : { id: course.handle };
  }

  private participationCreate(index: number, tag: string): Operation | undefined {
    const course = this.pickCourse();
    if (!course) return undefined;
    const key = this.keyOf('t');
    const attributes: Record<string, unknown> = {
      first_name: 'Chaos',
      last_name: key,
      comment: tag,
    };
    if (this.chance(0.3)) attributes.paid = true;
    return {
      index,
      name: 'participation.create',
      args: { courseId: course.record.handle, attributes },
      accepted: (id) => {
        const record = this.record('participation', id, true, key);
        record.attributes = { ...attributes };
        record.course = this.courseRef(course.record);
        this.dependOn(record, course.record);
        course.room -= 1;
        this.participations.push(record);
      },
    };
  }

  private courseIdOf(record: ModelRecord): string {
    const course = record.course!;
    return 'handle' in course ? course.handle : course.id;
  }

  private participationUpdate(index: number, tag: string): Operation | undefined {
    const participation = this.pickLive(this.participations, 0.6);
    if (!participation) return undefined;
    const attributes: Record<string, unknown> = { comment: tag };
    if (participation.created && this.chance(0.4))
      attributes.last_name = this.keyed(participation, tag);
    if (this.chance(0.3)) attributes.status = this.pick(['confirmed', 'attended', 'absent']);
    if (this.chance(0.3)) attributes.paid = this.chance(0.5);
    return {
      index,
      name: 'participation.update',
      args: { courseId: this.courseIdOf(participation), id: participation.handle, attributes },
      accepted: () => Object.assign(participation.attributes, attributes),
    };
  }

  private participationCancel(index: number, tag: string): Operation | undefined {
    const participation = this.pickLive(this.participations, 0.6);
    if (!participation) return undefined;
    return {
      index,
      name: 'participation.cancel',
      args: {
        courseId: this.courseIdOf(participation),
        id: participation.handle,
        attributes: { reason: tag },
      },
      accepted: () => {
        participation.cancelled = true;
        participation.attributes.status = 'cancelled';
        const course = this.courses.find((c) => c.record.handle === this.courseIdOf(participation));
        if (course) course.room += 1;
      },
    };
  }

  private fieldCreate(index: number, tag: string): Operation | undefined {
    const course = this.pickCourse();
    if (!course) return undefined;
    const key = this.keyOf('f');
    const attributes = { name: key, field_type: 'text', value: tag, position: index % 50 };
    return {
      index,
      name: 'customfield.create',
      args: { courseId: course.record.handle, attributes },
      accepted: (id) => {
        const record = this.record('customfield', id, true, key);
        record.attributes = { ...attributes };
        record.course = this.courseRef(course.record);
        this.dependOn(record, course.record);
        this.fields.push(record);
      },
    };
  }

  private fieldUpdate(index: number, tag: string): Operation | undefined {
    const field = this.pickLive(this.fields, 0.6);
    if (!field) return undefined;
    const attributes: Record<string, unknown> = { name: this.keyed(field, tag) };
    if (field.created && this.chance(0.5)) attributes.value = tag;
    return {
      index,
      name: 'customfield.update',
      args: { courseId: this.courseIdOf(field), id: field.handle, attributes },
      accepted: () => Object.assign(field.attributes, attributes),
    };
  }

  private fieldDelete(index: number): Operation | undefined {
    const field = this.pickLive(this.fields, 0.6);
    if (!field) return undefined;
    return {
      index,
      name: 'customfield.delete',
      args: { courseId: this.courseIdOf(field), id: field.handle },
      accepted: () => {
        field.deleted = true;
      },
    };
  }

  /** A seeded number in [0, 1) for the run's own decisions (batch sizes, kill moments). */
  draw(): number {
    return this.random();
  }
}
