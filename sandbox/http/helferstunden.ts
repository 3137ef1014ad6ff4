// Volunteer hours (tag "Helferstunden"): entries with their filters, reading, creating,
// changing and deleting one entry, occasions (Anlass), and the caller's hour settings.
//
// Filters of GET /helferstunden (dates are Berlin dates, meaning midnight at their start):
//   filter[eigene]         default true: the caller's entries; false: everyone's (office only)
//   filter[von]            default 6 months before today: entries whose start or end is at or
//                          after the date's midnight
//   filter[bis]            default none: entries whose start or end is before the date's midnight
//   filter[changed_since]  entries changed at or after the instant
//   include                anlass, typ, user, anlass.referenz (references exist only for
//                          occasions of a service or appointment)
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../auth/types';
import type { ResourceRef, StoredResource } from '../data/store';
import { addMonthsToDate, berlinMidnight } from './berlin-time';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { changeTimeOf, principalOf, todayOf } from './context';
import { forbidden, invalidAttribute, notFound } from './errors';
import { isOffice, requireOffice } from './permissions';
import { Query } from './query';
import { requireRecord, toOneId } from './records';
import { sendList, sendNoContent, sendResource } from './respond';
import { amount, date, dateTime, nonEmptyText, toOne } from './schemas';

const HOURS_INCLUDES = {
  anlass: ['anlass'],
  typ: ['typ'],
  user: ['user'],
  'anlass.referenz': ['anlass', 'referenz'],
} as const;

const hoursAttributes = z.strictObject({
  von: dateTime,
  bis: dateTime.nullable(),
  stunden: z
    .number()
    .positive('Must be more than 0.')
    .max(1000, 'More than 1000 hours in one entry.'),
  anfahrt_km: amount.nullable(),
  freies_zahlenfeld: z.number().nullable(),
  bemerkung: z.string(),
  freigegeben: z.boolean(),
});
const hoursRelationships = z.strictObject({
  anlass: toOne('helferstunden_anlass'),
  typ: toOne('helferstunden_typ'),
  user: toOne('user'),
});
const hoursPost = {
  attributes: hoursAttributes.partial().required({ von: true, stunden: true }),
  relationships: hoursRelationships.partial().required({ anlass: true, typ: true }),
};
const hoursPatch = {
  attributes: hoursAttributes.partial(),
  relationships: hoursRelationships.partial(),
};

const ANLASS_KINDS = ['dienst', 'termin', 'kurs', 'sonstiges'] as const;
const anlassAttributes = z.strictObject({
  typ: z.enum(ANLASS_KINDS),
  beschreibung: nonEmptyText,
  datum: date,
});
const anlassRelationships = z.strictObject({
  referenz: z.strictObject({
    data: z.strictObject({ type: z.enum(['dienst', 'termin']), id: z.string().min(1) }).nullable(),
  }),
});

/** Spans already parsed, by stored record (records are frozen: a change is a new record). */
const spans = new WeakMap<StoredResource, readonly [number, number | null]>();

/** Start and end of an entry as instants (entries may carry any offset, so strings do not compare). */
function spanOf(entry: StoredResource): readonly [number, number | null] {
  let span = spans.get(entry);
  if (!span) {
    const bis = entry.attributes.bis;
    span = [
      Date.parse(entry.attributes.von as string),
      typeof bis === 'string' ? Date.parse(bis) : null,
    ];
    spans.set(entry, span);
  }
  return span;
}

function entryOrNotFound(context: ApiContext, id: string): StoredResource {
  const entry = context.store.get('helferstunden', id);
  if (!entry) throw notFound(`No volunteer-hours entry ${id}.`);
  return entry;
}

/** Office may touch every entry; others only their own, and only while it is not approved. */
function requireEntryAccess(principal: Principal, entry: StoredResource, change: boolean): void {
  if (isOffice(principal)) return;
  if (toOneId(entry, 'user') !== principal.userId)
    throw forbidden(`Volunteer-hours entry ${entry.id} belongs to another person.`);
  if (change && entry.attributes.freigegeben === true) {
    throw forbidden(
      `Volunteer-hours entry ${entry.id} is approved; only office staff may change it.`,
    );
  }
}

/** The three relationships every entry has. */
interface EntryLinks {
  anlass: ResourceRef;
  typ: ResourceRef;
  user: ResourceRef;
}

/** Rules that need the data: an active hour type (when it is chosen), a person who may get hours, end after start. */
function checkEntry(
  context: ApiContext,
  attributes: Record<string, unknown>,
  links: EntryLinks,
  typeChosen: boolean,
): void {
  const hourType = requireRecord(context.store, links.typ, '/data/relationships/typ/data');
  if (typeChosen && hourType.attributes.aktiv !== true) {
    throw invalidAttribute(
      '/data/relationships/typ/data',
      `Hour type ${hourType.id} is deactivated; only active types take new entries.`,
    );
  }
  requireRecord(context.store, links.anlass, '/data/relationships/anlass/data');
  const user = requireRecord(context.store, links.user, '/data/relationships/user/data');
  if (user.attributes.status === 'gesperrt') {
    throw invalidAttribute(
      '/data/relationships/user/data',
      `Person ${user.id} is blocked (gesperrt) and cannot get hours.`,
    );
  }
  const bis = attributes.bis;
  if (typeof bis === 'string' && Date.parse(bis) < Date.parse(attributes.von as string)) {
    throw invalidAttribute('/data/attributes/bis', 'bis lies before von.');
  }
}

/** Non-office callers enter hours for themselves only, never approve them, and need the right to. */
function checkOwnEntry(
  context: ApiContext,
  principal: Principal,
  input: { freigegeben?: boolean },
  userId: string | undefined,
) {
  if (isOffice(principal)) return;
  if (userId !== undefined && userId !== principal.userId)
    throw forbidden('Entering hours for another person is for office staff only.');
  if (input.freigegeben !== undefined)
    throw forbidden('Only office staff may approve hours (freigegeben).');
  const self = context.store.get('user', principal.userId);
  if (self?.attributes.status === 'eingeschraenkt') {
    throw forbidden('People with status "eingeschraenkt" may not enter hours.');
  }
}

function listHours(
  context: ApiContext,
  principal: Principal,
  query: Query,
): readonly StoredResource[] {
  const own = query.boolean('filter[eigene]') ?? true;
  if (!own) requireOffice(principal, "Listing everyone's hours (filter[eigene]=false)");
  const from =
    query.dateMidnight('filter[von]') ?? berlinMidnight(addMonthsToDate(todayOf(context), -6));
  const before = query.dateMidnight('filter[bis]');
  const changedSince = query.instant('filter[changed_since]');
  const since = changedSince === undefined ? undefined : new Date(changedSince).toISOString();
  const candidates = own
    ? context.store.related('helferstunden', 'user', principal.userId)
    : context.store.all('helferstunden');
  return candidates.filter((entry) => {
    // The change time first: a sync's lists ask for the few entries changed since its last.
    if (since !== undefined && entry.updatedAt < since) return false;
    const [start, end] = spanOf(entry);
    if (!(start >= from || (end !== null && end >= from))) return false;
    return before === undefined || start < before || (end !== null && end < before);
  });
}

function registerEntryRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/helferstunden', async (request, reply) => {
    const query = Query.read(request, [
      'filter[eigene]',
      'filter[von]',
      'filter[bis]',
      'filter[changed_since]',
      'include',
    ]);
    const include = query.include(HOURS_INCLUDES);
    return sendList(
      context,
      request,
      reply,
      query,
      listHours(context, principalOf(request), query),
      { include },
    );
  });

  app.get<{ Params: { id: string } }>('/helferstunden/:id', async (request, reply) => {
    Query.read(request, []);
    const entry = entryOrNotFound(context, request.params.id);
    requireEntryAccess(principalOf(request), entry, false);
    return sendResource(context, reply, entry);
  });

  app.post('/helferstunden', async (request, reply) => {
    Query.read(request, []);
    const principal = principalOf(request);
    const document = readDocument(request, {
      type: 'helferstunden',
      id: createRule(context),
      ...hoursPost,
    });
    refuseUsedClientId(context, 'helferstunden', document.id);
    const input = document.attributes;
    const given = document.relationships!;
    checkOwnEntry(context, principal, input, given.user?.data.id);
    const links: EntryLinks = {
      anlass: given.anlass.data,
      typ: given.typ.data,
      user: given.user?.data ?? { type: 'user', id: principal.userId },
    };
    const attributes = {
      freigegeben: false,
      bis: null,
      anfahrt_km: null,
      freies_zahlenfeld: null,
      bemerkung: '',
      ...input,
    };
    checkEntry(context, attributes, links, true);
    const now = changeTimeOf(context);
    const entry = createOnce(context, 'helferstunden', document.id, () =>
      context.store.put({
        type: 'helferstunden',
        id: context.store.nextId('helferstunden'),
        attributes: { ...attributes, created_at: now, updated_at: now },
        relationships: { ...links },
      }),
    );
    return sendResource(context, reply, entry, { status: 201, meta: clientIdMeta(document.id) });
  });

  app.patch<{ Params: { id: string } }>('/helferstunden/:id', async (request, reply) => {
    Query.read(request, []);
    const principal = principalOf(request);
    const entry = entryOrNotFound(context, request.params.id);
    requireEntryAccess(principal, entry, true);
    const document = readDocument(request, {
      type: 'helferstunden',
      id: { kind: 'update', id: entry.id },
      ...hoursPatch,
    });
    const input = document.attributes;
    const changes = document.relationships ?? {};
    checkOwnEntry(context, principal, input, changes.user?.data.id);
    const current = entry.relationships as unknown as EntryLinks;
    const links: EntryLinks = {
      anlass: changes.anlass?.data ?? current.anlass,
      typ: changes.typ?.data ?? current.typ,
      user: changes.user?.data ?? current.user,
    };
    const attributes = { ...entry.attributes, ...input, updated_at: changeTimeOf(context) };
    checkEntry(context, attributes, links, changes.typ !== undefined);
    const updated = context.store.transaction(() =>
      context.store.put({
        ...entry,
        attributes,
        relationships: { ...entry.relationships, ...links },
      }),
    );
    return sendResource(context, reply, updated);
  });

  app.delete<{ Params: { id: string } }>('/helferstunden/:id', async (request, reply) => {
    Query.read(request, []);
    const entry = entryOrNotFound(context, request.params.id);
    requireEntryAccess(principalOf(request), entry, true);
    context.store.transaction(() => context.store.remove('helferstunden', entry.id));
    return sendNoContent(reply);
  });
}

/** References exist for services and appointments only, and must be of the occasion's kind. */
function checkReferenz(context: ApiContext, typ: string, referenz: ResourceRef | null): void {
  if (referenz === null) return;
  const pointer = '/data/relationships/referenz/data';
  if (referenz.type !== typ) {
    throw invalidAttribute(
      pointer,
      `An occasion of kind "${typ}" cannot refer to a ${referenz.type}.`,
    );
  }
  requireRecord(context.store, referenz, pointer);
}

function registerAnlassRoutes(app: FastifyInstance, context: ApiContext): void {
  app.post('/helferstunden/anlass', async (request, reply) => {
    Query.read(request, []);
    const document = readDocument(request, {
      type: 'helferstunden_anlass',
      id: createRule(context),
      attributes: anlassAttributes.partial().required({ typ: true, beschreibung: true }),
      relationships: anlassRelationships.partial(),
    });
    refuseUsedClientId(context, 'helferstunden_anlass', document.id);
    const input = document.attributes;
    const referenz = document.relationships?.referenz?.data ?? null;
    checkReferenz(context, input.typ, referenz);
    const anlass = createOnce(context, 'helferstunden_anlass', document.id, () =>
      context.store.put({
        type: 'helferstunden_anlass',
        id: context.store.nextId('helferstunden_anlass'),
        attributes: { datum: todayOf(context), ...input, updated_at: changeTimeOf(context) },
        relationships: { referenz },
      }),
    );
    return sendResource(context, reply, anlass, { status: 201, meta: clientIdMeta(document.id) });
  });

  app.patch<{ Params: { id: string } }>('/helferstunden/anlass/:id', async (request, reply) => {
    requireOffice(principalOf(request), 'Changing an occasion');
    Query.read(request, []);
    const anlass = context.store.get('helferstunden_anlass', request.params.id);
    if (!anlass) throw notFound(`No occasion ${request.params.id}.`);
    const document = readDocument(request, {
      type: 'helferstunden_anlass',
      id: { kind: 'update', id: anlass.id },
      attributes: anlassAttributes.partial(),
      relationships: anlassRelationships.partial(),
    });
    const attributes = {
      ...anlass.attributes,
      ...document.attributes,
      updated_at: changeTimeOf(context),
    };
    const referenzChange = document.relationships?.referenz;
    const referenz = referenzChange
      ? referenzChange.data
      : ((anlass.relationships.referenz ?? null) as ResourceRef | null);
    checkReferenz(context, attributes.typ as string, referenz);
    const updated = context.store.transaction(() =>
      context.store.put({
        ...anlass,
        attributes,
        relationships: { ...anlass.relationships, referenz },
      }),
    );
    return sendResource(context, reply, updated);
  });
}

function registerSettingsRoute(app: FastifyInstance, context: ApiContext): void {
  app.get('/helferstunden/einstellungen/selbst', async (request, reply) => {
    Query.read(request, []);
    const userId = principalOf(request).userId;
    const activeTypes = context.store
      .all('helferstunden_typ')
      .filter((typ) => typ.attributes.aktiv === true);
    const stored = context.store.get('helferstunden_einstellungen', userId);
    if (!stored) throw notFound('The sandbox holds no volunteer-hours settings for you.');
    // The offered types are always the currently active ones, whatever was stored.
    const settings: StoredResource = {
      ...stored,
      relationships: {
        ...stored.relationships,
        typen: activeTypes.map((typ) => ({ type: 'helferstunden_typ', id: typ.id })),
      },
    };
    return sendResource(context, reply, settings, { include: [['typen']] });
  });
}

export function registerHelferstundenRoutes(app: FastifyInstance, context: ApiContext): void {
  registerAnlassRoutes(app, context);
  registerSettingsRoute(app, context);
  registerEntryRoutes(app, context);
}
