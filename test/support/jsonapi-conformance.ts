// Checks response bodies against the JSON:API 1.0 response schema of the shared conformance
// folder, with the Ajv class of the schema's own draft (read from its `$schema`), so a newer
// schema file keeps working. Used by every test that talks to the sandbox or the service.
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const SCHEMA_URL = new URL(
  '../../../shared/conformance/jsonapi-1.0-response.schema.json',
  import.meta.url,
);

type AjvClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;

/** The Ajv class for a `$schema` URI: 2020-12, 2019-09, or draft-07/06 (Ajv's default). */
export function ajvClassFor(schemaUri: string | undefined): AjvClass {
  if (schemaUri?.includes('2020-12')) return Ajv2020;
  if (schemaUri?.includes('2019-09')) return Ajv2019;
  if (schemaUri === undefined || /draft-0[67]/.test(schemaUri)) return Ajv;
  throw new Error(`No Ajv class for the JSON Schema draft ${schemaUri}`);
}

let validator: ValidateFunction | undefined;

function compiledValidator(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as { $schema?: string };
    const AjvForDraft = ajvClassFor(schema.$schema);
    // strict: false because the published schema mixes drafts (`definitions`, `dependencies`).
    const ajv = new AjvForDraft({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  return validator;
}

/** The schema's complaints about a document, empty when it conforms. */
export function jsonApiViolations(document: unknown): string[] {
  const validate = compiledValidator();
  if (validate(document)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}

/** Throws, listing the violations, unless the document is a valid JSON:API 1.0 response. */
export function assertJsonApiDocument(document: unknown): void {
  const violations = jsonApiViolations(document);
  if (violations.length > 0) {
    throw new Error(`Not a JSON:API 1.0 response:\n  ${violations.slice(0, 10).join('\n  ')}`);
  }
}
