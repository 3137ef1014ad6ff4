// JSON:API documents: resource objects with absolute `links.self`, compound documents whose
// `included` holds every related resource exactly once (never one of the primary resources),
// and the serialized body. Output does no schema work per record: plain objects are assembled
// (sharing the stored attribute objects) and the whole document goes through one
// JSON.stringify, which measured faster than joining cached per-record JSON. An optional
// AnswerVariation (variation.ts) reshapes the assembled document just before that.
import type { Relationship, ResourceRef, Store, StoredResource } from '../data/store';
import type { Links } from './links';
import type { IncludePath } from './query';
import type { AnswerVariation, AssembledDocument } from './variation';

export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: ResourceRef | ResourceRef[] | null }>;
  links: { self: string };
  meta?: Record<string, unknown>;
}

/** What a client sees of a stored record: derived attributes filled in, hidden relationships left out. */
export interface View {
  attributes: Record<string, unknown>;
  relationships: Record<string, Relationship>;
}

export type ViewOf = (resource: StoredResource) => View;

export interface DocumentExtras {
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

const keyOf = (ref: ResourceRef): string => `${ref.type}\u0000${ref.id}`;

function refsOf(relationship: Relationship | undefined): readonly ResourceRef[] {
  if (!relationship) return [];
  return Array.isArray(relationship) ? relationship : [relationship];
}

export class Renderer {
  constructor(
    private readonly store: Store,
    private readonly links: Links,
    private readonly viewOf: ViewOf,
    private readonly variation?: AnswerVariation,
  ) {}

  object(resource: StoredResource): ResourceObject {
    const view = this.viewOf(resource);
    const relationships: NonNullable<ResourceObject['relationships']> = {};
    let hasRelationships = false;
    for (const name in view.relationships) {
      relationships[name] = { data: view.relationships[name] ?? null };
      hasRelationships = true;
    }
    return {
      type: resource.type,
      id: resource.id,
      attributes: view.attributes,
      ...(hasRelationships ? { relationships } : {}),
      links: { self: this.links.self(resource) },
    };
  }

  /**
   * The related resources reached from the primary ones along each include path, each once,
   * none of them a primary resource. Intermediate resources of a path (the `anlass` of
   * `anlass.referenz`) are included too, as JSON:API's full linkage requires.
   */
  included(primary: readonly StoredResource[], paths: readonly IncludePath[]): StoredResource[] {
    if (paths.length === 0) return [];
    const seen = new Set<string>(primary.map(keyOf));
    const result: StoredResource[] = [];
    for (const path of paths) {
      let level: readonly StoredResource[] = primary;
      for (const name of path) {
        const next: StoredResource[] = [];
        const nextKeys = new Set<string>();
        for (const resource of level) {
          for (const ref of refsOf(this.viewOf(resource).relationships[name])) {
            const key = keyOf(ref);
            if (nextKeys.has(key)) continue;
            const related = this.store.get(ref.type, ref.id);
            if (!related) continue;
            nextKeys.add(key);
            next.push(related);
            if (!seen.has(key)) {
              seen.add(key);
              result.push(related);
            }
          }
        }
        level = next;
      }
    }
    return result;
  }

  /**
   * A single-resource or list document with the related resources of `include`: `jsonapi`
   * first, then data, included, links, meta. `objectMeta` is the `meta` of a single primary
   * resource object (e.g. the client id it was created with).
   */
  document(
    primary: StoredResource | readonly StoredResource[],
    include: readonly IncludePath[],
    extras: DocumentExtras = {},
    objectMeta?: Record<string, unknown>,
  ): string {
    const list: readonly StoredResource[] = isList(primary) ? primary : [primary];
    const document: AssembledDocument = {
      jsonapi: { version: '1.0' },
      data: isList(primary)
        ? list.map((resource) => this.object(resource))
        : objectMeta
          ? { ...this.object(primary), meta: objectMeta }
          : this.object(primary),
      ...(include.length > 0
        ? { included: this.included(list, include).map((resource) => this.object(resource)) }
        : {}),
      ...extras,
    };
    // The one step where answers vary (--shapes real or robust, unreadable records); off by default.
    if (this.variation?.active) this.variation.apply(document);
    return JSON.stringify(document);
  }
}

function isList(
  primary: StoredResource | readonly StoredResource[],
): primary is readonly StoredResource[] {
  return Array.isArray(primary);
}
