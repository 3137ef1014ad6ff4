// OAuth parameters arrive as a query string or a form body. RFC 6749 §3.1 forbids sending a
// parameter twice, so a repeated one is an error rather than a silent first-wins.

export interface Parameters {
  /** The single value of a parameter, or undefined when absent or empty (RFC 6749 §3.1). */
  get(name: string): string | undefined;
  /** Names sent more than once. */
  readonly repeated: readonly string[];
}

export function readParameters(source: unknown): Parameters {
  const values = new Map<string, string>();
  const repeated: string[] = [];
  if (source !== null && typeof source === 'object') {
    for (const [name, value] of Object.entries(source)) {
      if (Array.isArray(value)) repeated.push(name);
      else if (typeof value === 'string' && value !== '') values.set(name, value);
    }
  }
  return { get: (name) => values.get(name), repeated };
}
