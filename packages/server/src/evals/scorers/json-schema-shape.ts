/**
 * A structural check of a JSON Schema (draft 2020-12) given to the `json_schema` built-in: every
 * known keyword has a value of the right shape, subschemas are checked recursively, and `pattern`
 * values compile. Validation itself runs in the SDK (ajv's 2020-12 build); the server only refuses
 * schemas that no validator could use.
 * @module
 */

/** The `$schema` URI of draft 2020-12 (with or without the trailing `#`). */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SCHEMA_MAP_KEYWORDS = ['$defs', 'definitions', 'dependentSchemas', 'patternProperties', 'properties'];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const COUNT_KEYWORDS = [
  'maxContains',
  'maxItems',
  'maxLength',
  'maxProperties',
  'minContains',
  'minItems',
  'minLength',
  'minProperties',
];
const NUMBER_KEYWORDS = ['exclusiveMaximum', 'exclusiveMinimum', 'maximum', 'minimum'];
const STRING_KEYWORDS = [
  '$anchor',
  '$comment',
  '$dynamicAnchor',
  '$dynamicRef',
  '$id',
  '$ref',
  'contentEncoding',
  'contentMediaType',
  'description',
  'format',
  'title',
];
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown, unique: boolean): boolean {
  return (
    Array.isArray(value) &&
    value.every((item) => typeof item === 'string') &&
    (!unique || new Set(value).size === value.length)
  );
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The first problem of `schema` as `<JSON pointer>: <rule>`, or `undefined` when it is usable. */
export function jsonSchemaProblem(schema: unknown, at = '', depth = 0): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) return `${at || '/'}: a schema is an object or a boolean`;
  if (depth > MAX_DEPTH) return `${at}: schemas nest at most ${MAX_DEPTH} levels`;
  const where = (keyword: string) => `${at}/${keyword}`;
  if (depth === 0 && schema.$schema !== undefined) {
    if (typeof schema.$schema !== 'string' || !DRAFT_2020_12.test(schema.$schema)) {
      return `${where('$schema')}: must be https://json-schema.org/draft/2020-12/schema (draft 2020-12) when set`;
    }
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    if (schema[keyword] === undefined) continue;
    const problem = jsonSchemaProblem(schema[keyword], where(keyword), depth + 1);
    if (problem) return problem;
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (map === undefined) continue;
    if (!isObject(map)) return `${where(keyword)}: must be an object of schemas`;
    for (const [name, inner] of Object.entries(map)) {
      if (keyword === 'patternProperties' && !compiles(name)) {
        return `${where(keyword)}: a property pattern is not a valid regular expression`;
      }
      const problem = jsonSchemaProblem(
        inner,
        `${where(keyword)}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        depth + 1,
      );
      if (problem) return problem;
    }
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = schema[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0)
      return `${where(keyword)}: must be a nonempty array of schemas`;
    for (const [index, inner] of list.entries()) {
      const problem = jsonSchemaProblem(inner, `${where(keyword)}/${index}`, depth + 1);
      if (problem) return problem;
    }
  }
  for (const keyword of COUNT_KEYWORDS) {
    const value = schema[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      return `${where(keyword)}: must be a nonnegative integer`;
    }
  }
  for (const keyword of NUMBER_KEYWORDS) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'number')
      return `${where(keyword)}: must be a number`;
  }
  for (const keyword of STRING_KEYWORDS) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'string')
      return `${where(keyword)}: must be a string`;
  }
  if (schema.multipleOf !== undefined && !(typeof schema.multipleOf === 'number' && schema.multipleOf > 0)) {
    return `${where('multipleOf')}: must be a number greater than 0`;
  }
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (
      !isStringList(types, true) ||
      (types as string[]).length === 0 ||
      !(types as string[]).every((t) => TYPES.has(t))
    ) {
      return `${where('type')}: must be one of ${[...TYPES].join(', ')}, or a nonempty array of them without repeats`;
    }
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${where('enum')}: must be an array`;
  if (schema.required !== undefined && !isStringList(schema.required, true)) {
    return `${where('required')}: must be an array of unique strings`;
  }
  if (schema.uniqueItems !== undefined && typeof schema.uniqueItems !== 'boolean') {
    return `${where('uniqueItems')}: must be a boolean`;
  }
  if (schema.dependentRequired !== undefined) {
    if (
      !isObject(schema.dependentRequired) ||
      !Object.values(schema.dependentRequired).every((v) => isStringList(v, true))
    ) {
      return `${where('dependentRequired')}: must be an object of arrays of unique strings`;
    }
  }
  if (schema.pattern !== undefined && (typeof schema.pattern !== 'string' || !compiles(schema.pattern))) {
    return `${where('pattern')}: must be a valid regular expression`;
  }
  return undefined;
}
