// Notifications, forms and tax rates (seed 4.5).
import type { z } from 'zod';
import type { ApiCore, RequestOptions } from '../core';
import { check } from '../document';
import type { Page } from '../pages';
import {
  benachrichtigungenMeta,
  benachrichtigungResource,
  formularList,
  steuersatzResource,
  type BenachrichtigungResource,
  type Formular,
  type SteuersatzResource,
} from '../schemas/messages';
import { buildUrl } from '../urls';

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
