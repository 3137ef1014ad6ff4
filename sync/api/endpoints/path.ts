/** An id as one path segment: an id holding "/" or "?" must not change the address. */
export function pathSegment(id: string): string {
  if (id === '') throw new RangeError('An id in a path must not be empty');
  return encodeURIComponent(id);
}
