// The service read with plain fetch, deliberately not the sync client (so the two cannot share a
// bug), following links.next; and what a value means as the tolerant reader keeps it. Free of
// vitest, so the differential tester's command line uses it too.

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

export interface OracleTarget {
  baseUrl: string;
  token: string;
}

export async function getJson(
  target: OracleTarget,
  path: string,
): Promise<{ data: Resource[] | Resource; included?: Resource[]; links?: { next?: string } }> {
  let url: string | undefined = `${target.baseUrl}${path}`;
  const data: Resource[] = [];
  const included: Resource[] = [];
  let single: Resource | undefined;
  while (url) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${target.token}` } });
    if (!response.ok)
      throw new Error(`oracle GET ${url}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as {
      data: Resource[] | Resource;
      included?: Resource[];
      links?: { next?: string };
    };
    if (Array.isArray(body.data)) data.push(...body.data);
    else single = body.data;
    included.push(...(body.included ?? []));
    url = body.links?.next;
  }
  return { data: single ?? data, included };
}

/** A plain JSON answer (not JSON:API), e.g. the forms list. */
export async function getPlainJson(target: OracleTarget, path: string): Promise<unknown> {
  const url = `${target.baseUrl}${path}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${target.token}` } });
  if (!response.ok)
    throw new Error(`oracle GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

export async function list(target: OracleTarget, path: string): Promise<Resource[]> {
  const { data } = await getJson(target, path);
  return Array.isArray(data) ? data : [data];
}

/**
 * What a value means, as the tolerant reader keeps it (DESIGN rule 14): null, "", zero dates,
 * empty lists and empty objects are no value and left out, at any depth.
 */
export function meaning(value: unknown): unknown {
  if (
    value === null ||
    value === '' ||
    (typeof value === 'string' && value.startsWith('0000-00-00'))
  )
    return undefined;
  if (Array.isArray(value)) {
    const items = value.map(meaning).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([key, member]) => [key, meaning(member)] as const)
      .filter(([, member]) => member !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
}
