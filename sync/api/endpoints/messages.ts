// Notifications, forms and tax rates (seed 4.5): their schemas, read tolerantly (see
// ../schemas/tolerance; nothing required), and their operations.
import { z } from 'zod';
import {
  date,
  dateTime,
  flag,
  integer,
  number,
  object,
  plainObjectSchema,
  resourceSchema,
  text,
} from '../schemas/common';
import { converted, isPlainObject, objectReader } from '../schemas/tolerance';
import type { ApiCore, RequestOptions } from '../core';
import { check } from '../document';
import type { Page } from '../pages';
import { buildUrl } from '../urls';

export const benachrichtigungResource = resourceSchema('benachrichtigung', {
  titel: text,
  text,
  kategorie: text,
  gelesen: flag,
  erstellt_am: dateTime,
  link: text,
});
export type BenachrichtigungResource = z.infer<typeof benachrichtigungResource>;

/** The notifications list carries its total in `meta.size` (a negative or unreadable one is no value). */
export const benachrichtigungenMeta = plainObjectSchema({
  size: (value: unknown) => {
    const size = integer(value);
    return size === undefined || size >= 0 ? size : undefined;
  },
});

const formularFields = { titel: text, aktion: object({}) };

/** `/formulare/v1/liste` answers plain JSON: an array of these. */
export const formular = plainObjectSchema(formularFields);
export type Formular = z.infer<typeof formular>;

const readFormular = objectReader(formularFields);

/** The list: not an array is unreadable; a null entry is dropped, an entry not an object too (counted). */
export const formularList = z.transform((input: unknown, ctx): Formular[] => {
  if (!Array.isArray(input)) {
    ctx.addIssue({ code: 'custom', message: 'expected a list of forms', input });
    return z.NEVER;
  }
  const forms: Formular[] = [];
  for (const entry of input) {
    if (entry === null) continue;
    if (isPlainObject(entry)) forms.push(readFormular(entry).value as Formular);
    else converted();
  }
  return forms;
});

/** Tax rates (`/steuersaetze`); the seed leaves the type open. */
export const steuersatzResource = resourceSchema(
  'steuersatz',
  { bezeichnung: text, satz: number, gueltig_ab: date },
  { anyTypeSpelling: true },
);
export type SteuersatzResource = z.infer<typeof steuersatzResource>;

/** The kind of object a form list is for: d service, t appointment, k course, m material, u personnel. */
export type FormularObjektTyp = 'd' | 't' | 'k' | 'm' | 'u';

export type BenachrichtigungenPage = Omit<Page<BenachrichtigungResource>, 'meta'> & {
  /** `size`: the number of notifications, as the service counts them. */
  meta?: z.infer<typeof benachrichtigungenMeta>;
};

export interface MessagesApi {
  listBenachrichtigungen(options?: RequestOptions): AsyncGenerator<BenachrichtigungenPage>;
  /** Plain JSON, not JSON:API; `id` is the object's id (for 'u' the user id). */
  listFormulare(typ: FormularObjektTyp, id: string, options?: RequestOptions): Promise<Formular[]>;
  listSteuersaetze(options?: RequestOptions): AsyncGenerator<Page<SteuersatzResource>>;
}

/** `versioned`: the base of `/formulare/v1` (ApiClientOptions.versionedPathsAt). */
export function messagesApi(core: ApiCore, versioned: URL = core.base): MessagesApi {
  return {
    async *listBenachrichtigungen(options) {
      for await (const page of core.list(
        '/benachrichtigungen',
        {},
        benachrichtigungResource,
        options,
      )) {
        const meta = check(
          benachrichtigungenMeta.optional(),
          page.meta,
          { method: 'GET', url: page.url },
          'meta',
        );
        yield { ...page, meta };
      }
    },
    listFormulare: (typ, id, options) =>
      core.getJson(buildUrl(versioned, '/formulare/v1/liste', { typ, id }), formularList, options),
    listSteuersaetze: (options) => core.list('/steuersaetze', {}, steuersatzResource, options),
  };
}

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const messagesSchemas = {
  benachrichtigung: benachrichtigungResource,
  steuersatz: steuersatzResource,
} as const;
