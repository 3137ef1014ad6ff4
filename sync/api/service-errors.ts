// The service's own words for a failure, from whatever the error body holds: JSON:API
// `{errors: [...]}`, OAuth's `{error, error_description}` (user-info, token endpoint), or nothing.
import type { ServiceErrorObject } from './errors';

const MEMBERS = ['status', 'code', 'title', 'detail'] as const;

export function parseServiceErrors(body: string): ServiceErrorObject[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!isObject(parsed)) return [];
  if (Array.isArray(parsed.errors)) return parsed.errors.filter(isObject).map(toErrorObject);
  if (typeof parsed.error === 'string') {
    const detail =
      typeof parsed.error_description === 'string' ? parsed.error_description : undefined;
    return [{ code: parsed.error, detail }];
  }
  return [];
}

function toErrorObject(raw: Record<string, unknown>): ServiceErrorObject {
  const error: ServiceErrorObject = {};
  for (const member of MEMBERS) {
    const value = raw[member];
    // Services disagree on `status` as "404" or 404; keep text either way.
    if (typeof value === 'string' || typeof value === 'number') error[member] = String(value);
  }
  if (isObject(raw.source)) error.source = raw.source;
  return error;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
