import type { RequestOptions } from '../core';

/** Options of an operation that takes only `include` (related resources to send along). */
export interface IncludeOptions<Name extends string> extends RequestOptions {
  include?: readonly Name[];
}
