// A list answer read as it arrives (issue 25): a large answer (the office's `/personal` is 21 MB at
// scale `large`) is neither held as text nor as one object tree. A streaming JSON parser
// (@streamparser/json) hands over each entry of `data` and `included` as soon as it is complete;
// each is checked and read like readResources does (strict identity, tolerant attributes, an
// unreadable entry quarantined), mapped by the caller (to the rows it will write) and let go.
// The envelope stays strict (DESIGN rule 14): a body that is not JSON, is cut off, or is not a
// JSON:API list document fails the whole answer as 'malformed' when that shows, possibly after
// many entries were read; the reader hands nothing over before the end of the document parsed
// cleanly (end() answers the entries), so a caller that applies only what end() answers applies
// nothing of a broken answer.
import { createHash, type Hash } from 'node:crypto';
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json';
import type { z } from 'zod';
import { ApiError } from './errors';
import {
  check,
  envelope,
  identityOf,
  malformed,
  readEntry,
  type Origin,
  type QuarantinedRecord,
} from './document';
import type { Resource } from './schemas/common';
import type { BodySink } from './transport';

/** What a list answer read as a stream gave: its entries read, mapped and keyed, and its envelope. */
export interface StreamedList<M> {
  /** The readable entries of `data`, mapped; `dataKeys[i]` is the `type:id` of `data[i]`. */
  data: M[];
  dataKeys: string[];
  included: Resource[];
  quarantined: QuarantinedRecord[];
  conversions: number;
  meta?: Record<string, unknown>;
  links?: z.infer<typeof envelope>['links'];
  /** The digest of the body's bytes, when asked for (equal to that of the text read whole). */
  digest?: string;
}

/** The top-level members handed over whole: small by nature. */
const SMALL_MEMBERS = ['jsonapi', 'meta', 'links'] as const;

/**
 * A sink for the transport (HttpRequest.consume) that reads a JSON:API list document as it
 * arrives: `schema` checks each entry of `data`, `map` turns a readable one into what the caller
 * keeps (its rows), included resources are checked against the schema of their type.
 */
export function listDocumentSink<T, M>(
  schema: z.ZodType<T>,
  map: (item: T) => M,
  origin: Origin,
  options: { digest: boolean },
): BodySink & { end(): StreamedList<M> } {
  const result: StreamedList<M> = {
    data: [],
    dataKeys: [],
    included: [],
    quarantined: [],
    conversions: 0,
  };
  const small: Record<string, unknown> = {};
  const hash: Hash | null = options.digest ? createHash('sha256') : null;
  // Where the parser stands in the document's top level, to check its shape as tokens arrive:
  // the first token, the depth, the member whose value comes next, and each member's first token.
  let started = false;
  let depth = 0;
  let expectKey = false;
  let key: string | null = null;
  let valueNext = false;
  const memberKinds = new Map<string, TokenType>();
  let dataIndex = 0;
  let includedIndex = 0;

  const tokenizer = new Tokenizer();
  // keepStack false: an entry emitted is dropped from its array at once (nothing accumulates).
  const parser = new TokenParser({
    paths: ['$.data.*', '$.included.*', ...SMALL_MEMBERS.map((name) => `$.${name}`)],
    keepStack: false,
  });

  tokenizer.onToken = (info) => {
    const { token } = info;
    if (!started) {
      started = true;
      if (token !== TokenType.LEFT_BRACE) throw malformed(origin, 'document: expected an object');
      depth = 1;
      expectKey = true;
      parser.write(info);
      return;
    }
    if (depth === 1) {
      if (valueNext) {
        valueNext = false;
        if (key !== null) {
          if (memberKinds.has(key)) throw malformed(origin, `document: "${key}" is given twice`);
          memberKinds.set(key, token);
          if (key === 'data' && token !== TokenType.LEFT_BRACKET)
            throw malformed(origin, 'data: expected a list of resources');
          if (key === 'included' && token !== TokenType.LEFT_BRACKET)
            throw malformed(origin, 'included: expected an array');
        }
      } else if (token === TokenType.STRING && expectKey) {
        key = info.value as string;
        expectKey = false;
      } else if (token === TokenType.COLON) valueNext = true;
      else if (token === TokenType.COMMA) expectKey = true;
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth += 1;
    else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth -= 1;
    parser.write(info);
  };

  parser.onValue = ({ value, key: member, stack }) => {
    if (stack.length === 1) {
      small[String(member)] = value;
      return;
    }
    const list = stack[1]?.key;
    if (list === 'data') {
      const at = `data[${dataIndex}]`;
      dataIndex += 1;
      const { type, id } = identityOf(value, origin, at);
      const read = readEntry(value, schema, origin, at, type, id);
      result.conversions += read.conversions;
      if ('item' in read) {
        result.data.push(map(read.item));
        result.dataKeys.push(`${type}:${id}`);
      } else result.quarantined.push(read.quarantined);
    } else if (list === 'included') {
      const at = `included[${includedIndex}]`;
      includedIndex += 1;
      const { type, id } = identityOf(value, origin, at);
      const read = readEntry<Resource>(value, null, origin, at, type, id);
      result.conversions += read.conversions;
      if ('item' in read) result.included.push(read.item);
      else result.quarantined.push(read.quarantined);
    }
  };

  function guarded(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw malformed(origin, 'the body is not JSON', error);
    }
  }

  return {
    write(chunk) {
      hash?.update(chunk);
      guarded(() => tokenizer.write(chunk));
    },
    end() {
      try {
        tokenizer.end();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw malformed(origin, 'the body is cut off: it ends inside a value', error);
      }
      if (!started) throw malformed(origin, 'the body is empty');
      if (!parser.isEnded)
        throw malformed(origin, 'the body is cut off: the document does not end');
      if (!memberKinds.has('data')) throw malformed(origin, 'data: expected a list of resources');
      // The small members against the same envelope schema as an answer read whole.
      const checked = check(envelope, small, origin, 'document');
      return {
        ...result,
        ...(checked.meta ? { meta: checked.meta } : {}),
        ...(checked.links ? { links: checked.links } : {}),
        ...(hash ? { digest: hash.digest('base64url') } : {}),
      };
    },
  };
}
