// How an answer differs from the uniform rendering, as one step on the assembled JSON:API
// document just before it is serialized (Renderer.document), so no route knows of it:
// - the shapes of `--shapes real` and `--shapes robust` (see shapes.ts), on every resource
//   object of `data` and `included`, and (robust) the other type spellings in the data of a list;
// - unreadable records: a resource object that keeps its `type`, `id` and `links` and the
//   document's envelope (`jsonapi`, `data`, `included`) but that no client can read:
//     attributes-string  `attributes` is a string
//     attributes-number  `attributes` is a number
//     von-object         (hour entries only) `von` is an object instead of a date-time
//   With `--faults unreadable=RATE` each resource object in the data of a list answer is made
//   unreadable with that probability, drawn from a PRNG seeded with the sandbox's seed (the same
//   sequence of requests meets the same faults). `breakRecord(type, id)` on the running sandbox
//   makes one record unreadable wherever it is primary data (lists and single answers) until
//   `repairRecord`; the store is not changed.
// Inactive (one boolean test per answer) unless one of these is on.
import type { ResourceObject } from './document';
import { seededRandom } from './faults';
import type { Links } from './links';
import type { ShapeVariation } from './shapes';

export const UNREADABLE_FORMS = ['attributes-string', 'attributes-number', 'von-object'] as const;
export type UnreadableForm = (typeof UNREADABLE_FORMS)[number];

/** A document as Renderer.document assembles it, before serializing. */
export interface AssembledDocument {
  jsonapi: { version: string };
  data: ResourceObject | ResourceObject[];
  included?: ResourceObject[];
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

export interface VariationOptions {
  /** Set for `--shapes real` and `--shapes robust`. */
  shapes?: ShapeVariation;
  /** `--faults unreadable=RATE`; default 0. */
  unreadableRate?: number;
  /** Seeds the unreadable fault's draws. */
  seed: number;
}

const keyOf = (type: string, id: string): string => `${type}\u0000${id}`;

/** Stands in for the content of an unreadable record's `attributes`. */
const UNREADABLE_TEXT = 'Datensatz nicht lesbar';

function unreadable(object: ResourceObject, form: UnreadableForm): ResourceObject {
  switch (form) {
    case 'attributes-string':
      return { ...object, attributes: UNREADABLE_TEXT as unknown as Record<string, unknown> };
    case 'attributes-number':
      return { ...object, attributes: 0 as unknown as Record<string, unknown> };
    case 'von-object': {
      const von = object.attributes.von;
      const text = typeof von === 'string' ? von : '';
      return {
        ...object,
        attributes: {
          ...object.attributes,
          von: { datum: text.slice(0, 10), zeit: text.slice(11, 16) },
        },
      };
    }
  }
}

export class AnswerVariation {
  /** True when some answer may differ from the uniform one; false: nothing is done. */
  active: boolean;
  private readonly broken = new Map<string, UnreadableForm>();
  private readonly shapes: ShapeVariation | undefined;
  private readonly unreadableRate: number;
  private readonly random: () => number;

  constructor(
    private readonly links: Links,
    options: VariationOptions,
  ) {
    this.shapes = options.shapes;
    this.unreadableRate = options.unreadableRate ?? 0;
    // Its own stream, so that the per-request faults meet the same sequence as without it.
    this.random = seededRandom((options.seed ^ 0x5bd1e995) >>> 0);
    this.active = this.isActive();
  }

  /** Renders this record unreadable wherever it is primary data, until repaired. */
  breakRecord(type: string, id: string, form: UnreadableForm = 'attributes-string'): void {
    if (!(UNREADABLE_FORMS as readonly string[]).includes(form))
      throw new RangeError(
        `Unknown unreadable form "${form}"; known: ${UNREADABLE_FORMS.join(', ')}.`,
      );
    if (form === 'von-object' && type !== 'helferstunden')
      throw new RangeError('The form "von-object" is for hour entries (helferstunden) only.');
    this.broken.set(keyOf(type, id), form);
    this.active = true;
  }

  /** Renders the record as usual again; true when it was broken. */
  repairRecord(type: string, id: string): boolean {
    const was = this.broken.delete(keyOf(type, id));
    this.active = this.isActive();
    return was;
  }

  /** Changes the assembled document in place (never the stored objects it shares). */
  apply(document: AssembledDocument): void {
    const { shapes } = this;
    if (Array.isArray(document.data)) {
      const self = document.links?.self ?? '';
      const answer = self.startsWith(this.links.base) ? self.slice(this.links.base.length) : self;
      const data = document.data;
      for (let index = 0; index < data.length; index += 1) {
        const object = data[index]!;
        const form = this.unreadableForm(object, true);
        let shaped = form ? unreadable(object, form) : shapes ? shapes.resource(object) : object;
        if (shapes) {
          const type = shapes.listType(object.type, answer);
          if (type !== object.type) shaped = { ...shaped, type };
        }
        data[index] = shaped;
      }
    } else {
      const form = this.unreadableForm(document.data, false);
      if (form) document.data = unreadable(document.data, form);
      else if (shapes) document.data = shapes.resource(document.data);
    }
    if (shapes && document.included)
      document.included = document.included.map((object) => shapes.resource(object));
  }

  private unreadableForm(object: ResourceObject, list: boolean): UnreadableForm | undefined {
    if (this.broken.size > 0) {
      const form = this.broken.get(keyOf(object.type, object.id));
      if (form) return form;
    }
    if (!list || this.unreadableRate <= 0) return undefined;
    const draw = this.random();
    if (draw >= this.unreadableRate) return undefined;
    const forms = object.type === 'helferstunden' ? 3 : 2;
    return UNREADABLE_FORMS[Math.min(forms - 1, Math.floor((draw / this.unreadableRate) * forms))];
  }

  private isActive(): boolean {
    return this.shapes !== undefined || this.unreadableRate > 0 || this.broken.size > 0;
  }
}
