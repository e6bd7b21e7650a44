/**
 * Event-rule conditions as NetBox 4 defines them (netbox/extras/conditions.py). A condition compares one
 * attribute of an object's serialized data with a value; a condition set combines conditions with "and" or "or"
 * and may nest:
 *
 *   {"and": [{"attr": "status.value", "value": "active"},
 *            {"attr": "tags.slug", "op": "contains", "value": "core", "negate": true}]}
 *
 * Comparisons follow Python's semantics, because rules written for NetBox must select the same objects here.
 */

export type ConditionOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'contains' | 'regex';

const OPERATORS: readonly ConditionOperator[] = ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'regex'];

type ConditionValueType = 'string' | 'boolean' | 'number' | 'list' | 'null';

/** The operators each type of condition value allows (NetBox's Condition.TYPES). */
const OPERATORS_BY_VALUE_TYPE: Record<ConditionValueType, readonly ConditionOperator[]> = {
  string: ['eq', 'contains', 'regex'],
  boolean: ['eq', 'contains'],
  number: ['eq', 'gt', 'gte', 'lt', 'lte', 'contains'],
  list: ['eq', 'in', 'contains'],
  null: ['eq'],
};

const CONDITION_KEYS = ['attr', 'value', 'op', 'negate'];

type LogicalOperator = 'and' | 'or';

interface ParsedCondition {
  kind: 'condition';
  attr: string;
  keys: string[];
  op: ConditionOperator;
  value: unknown;
  negate: boolean;
  /** Compiled once for "regex" conditions, null otherwise. */
  pattern: RegExp | null;
}

interface ParsedConditionSet {
  kind: 'set';
  logic: LogicalOperator;
  members: ParsedNode[];
}

type ParsedNode = ParsedCondition | ParsedConditionSet;

type JsonObject = Record<string, unknown>;

/**
 * The problems that make `json` unusable as an event rule's conditions, each prefixed with where it occurs
 * (e.g. `and[1].op: ...`); empty when valid. Null and `{}` are valid: they mean "no conditions".
 */
export function validateCondition(json: unknown): string[] {
  if (isEmptyCondition(json)) return [];
  const problems: string[] = [];
  parseNode(json, '', problems);
  return problems;
}

/**
 * Whether `data` (an object as the REST API serializes it) satisfies `condition`; true when there is no
 * condition. As in NetBox, a condition that cannot be evaluated (an attribute missing from the data, an
 * operator applied to a value of the wrong type) makes the whole rule false rather than only that condition:
 * negation and "or" do not turn it into a match. `onUnevaluable` receives the reason, for logging.
 */
export function evaluateCondition(condition: unknown, data: Record<string, unknown>, onUnevaluable?: (reason: string) => void): boolean {
  if (isEmptyCondition(condition)) return true;
  const problems: string[] = [];
  const root = parseNode(condition, '', problems);
  if (root === null || problems.length > 0) {
    onUnevaluable?.(`invalid condition: ${problems.join('; ')}`);
    return false;
  }
  try {
    return evaluateNode(root, data);
  } catch (error) {
    if (!(error instanceof UnevaluableConditionError)) throw error;
    onUnevaluable?.(error.message);
    return false;
  }
}

/** NetBox's InvalidCondition: aborts the evaluation of the whole rule. */
class UnevaluableConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

function isEmptyCondition(json: unknown): boolean {
  return json === null || json === undefined || (isJsonObject(json) && Object.keys(json).length === 0);
}

// Parsing: shared by validation and evaluation, so that what is saved is exactly what is evaluated.

function parseNode(json: unknown, location: string, problems: string[]): ParsedNode | null {
  if (!isJsonObject(json)) {
    problems.push(at(location, `expected a condition or a condition set (a JSON object), got ${jsonTypeOf(json)}`));
    return null;
  }
  const keys = Object.keys(json);
  return keys.some((key) => key.toLowerCase() === 'and' || key.toLowerCase() === 'or')
    ? parseConditionSet(json, keys, location, problems)
    : parseCondition(json, keys, location, problems);
}

function parseConditionSet(json: JsonObject, keys: string[], location: string, problems: string[]): ParsedNode | null {
  if (keys.length !== 1) {
    // NetBox recognises a set only by its single key, so a set carries no "negate" of its own.
    const hint = keys.includes('negate') ? '; sets cannot be negated, negate their conditions instead' : '';
    problems.push(at(location, `a condition set has exactly one key, "and" or "or" (found ${quoteAll(keys)})${hint}`));
    return null;
  }
  const logic = keys[0];
  if (logic !== 'and' && logic !== 'or') {
    problems.push(at(location, `write the logical operator "${logic}" in lowercase: "${logic.toLowerCase()}"`));
    return null;
  }
  const members = json[logic];
  if (!Array.isArray(members)) {
    problems.push(at(location, `"${logic}" must be a list of conditions, got ${jsonTypeOf(members)}`));
    return null;
  }
  const memberLocation = location === '' ? logic : `${location}.${logic}`;
  const parsed = members.map((member, index) => parseNode(member, `${memberLocation}[${index}]`, problems));
  return parsed.every((member) => member !== null) ? { kind: 'set', logic, members: parsed } : null;
}

function parseCondition(json: JsonObject, keys: string[], location: string, problems: string[]): ParsedNode | null {
  const found: string[] = [];
  const unknownKeys = keys.filter((key) => !CONDITION_KEYS.includes(key));
  if (unknownKeys.length > 0) {
    found.push(`unknown key(s) ${quoteAll(unknownKeys)}; a condition has "attr", "value", "op" and "negate"`);
  }

  const attr = json.attr;
  if (attr === undefined) found.push('"attr" is required');
  else if (typeof attr !== 'string') found.push(`"attr" must be a string, got ${jsonTypeOf(attr)}`);
  else if (attr.split('.').some((key) => key === '')) {
    found.push(`"attr" must be a dotted path such as "status.value", got "${attr}"`);
  }

  const op = json.op === undefined ? 'eq' : json.op;
  const knownOp = OPERATORS.find((operator) => operator === op);
  if (knownOp === undefined) found.push(`unknown operator ${JSON.stringify(op)}; use one of ${OPERATORS.join(', ')}`);

  const negate = json.negate ?? false;
  if (typeof negate !== 'boolean') found.push(`"negate" must be true or false, got ${jsonTypeOf(negate)}`);

  let pattern: RegExp | null = null;
  if (!Object.hasOwn(json, 'value')) {
    found.push(`"value" is required`);
  } else {
    const valueType = conditionValueTypeOf(json.value);
    if (valueType === null) {
      found.push(`"value" must be a string, number, boolean, list or null, got ${jsonTypeOf(json.value)}`);
    } else if (knownOp !== undefined && !OPERATORS_BY_VALUE_TYPE[valueType].includes(knownOp)) {
      const accepted = (Object.keys(OPERATORS_BY_VALUE_TYPE) as ConditionValueType[]).filter((type) =>
        OPERATORS_BY_VALUE_TYPE[type].includes(knownOp),
      );
      const acceptedText = accepted.length === 1 ? accepted[0] : `${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}`;
      found.push(`the "${knownOp}" operator needs a ${acceptedText} value, got ${valueType}`);
    } else if (knownOp === 'regex' && typeof json.value === 'string') {
      try {
        pattern = compilePythonPattern(json.value);
      } catch (error) {
        found.push(`"value" is not a valid regular expression: ${(error as Error).message}`);
      }
    }
  }

  problems.push(...found.map((problem) => at(location, problem)));
  if (found.length > 0 || typeof attr !== 'string' || knownOp === undefined || typeof negate !== 'boolean') return null;
  return { kind: 'condition', attr, keys: attr.split('.'), op: knownOp, value: json.value, negate, pattern };
}

/**
 * Python's re.match anchors at the start of the string only, which the sticky flag reproduces. Leading inline
 * flags such as "(?i)" (common in NetBox rules) become JavaScript flags; other Python-only syntax fails to compile
 * and is reported when the rule is saved.
 */
function compilePythonPattern(pattern: string): RegExp {
  const inlineFlags = /^\(\?([ims]+)\)/.exec(pattern);
  if (inlineFlags === null) return new RegExp(pattern, 'y');
  return new RegExp(pattern.slice(inlineFlags[0].length), `${[...new Set(inlineFlags[1])].join('')}y`);
}

function conditionValueTypeOf(value: unknown): ConditionValueType | null {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  return null;
}

// Evaluation

function evaluateNode(node: ParsedNode, data: JsonObject): boolean {
  if (node.kind === 'set') {
    // every/some stop early exactly like Python's all/any, so a later member that cannot be evaluated is not reached.
    const evaluateMember = (member: ParsedNode) => evaluateNode(member, data);
    return node.logic === 'and' ? node.members.every(evaluateMember) : node.members.some(evaluateMember);
  }
  const matched = compare(node, resolveAttribute(node, data));
  return node.negate ? !matched : matched;
}

/**
 * Walks the dotted path. A key applied to a list is applied to each item, so "tags.slug" gives the list of slugs.
 * A missing key or a null on the way cannot be evaluated (NetBox 4 raises InvalidCondition; it no longer
 * compares against None as NetBox 3 did).
 */
function resolveAttribute(condition: ParsedCondition, data: JsonObject): unknown {
  let current: unknown = data;
  for (const key of condition.keys) {
    if (Array.isArray(current)) {
      current = current.map((item: unknown) => lookUp(item, key, condition.attr));
    } else {
      current = lookUp(current, key, condition.attr);
    }
  }
  return current;
}

function lookUp(container: unknown, key: string, attr: string): unknown {
  if (container === null || container === undefined) {
    throw new UnevaluableConditionError(`"${attr}" not found in the data (null before "${key}")`);
  }
  if (!isJsonObject(container)) {
    throw new UnevaluableConditionError(`"${attr}" cannot be resolved: "${key}" is looked up within a ${jsonTypeOf(container)}`);
  }
  const value = Object.hasOwn(container, key) ? container[key] : undefined;
  if (value === undefined) throw new UnevaluableConditionError(`"${attr}" not found in the data ("${key}" is missing)`);
  return value;
}

function compare(condition: ParsedCondition, actual: unknown): boolean {
  const expected = condition.value;
  switch (condition.op) {
    case 'eq':
      return pythonEquals(actual, expected);
    case 'gt':
      return orderable(condition, actual) > (expected as number);
    case 'gte':
      return orderable(condition, actual) >= (expected as number);
    case 'lt':
      return orderable(condition, actual) < (expected as number);
    case 'lte':
      return orderable(condition, actual) <= (expected as number);
    case 'in':
      return (expected as unknown[]).some((candidate) => pythonEquals(actual, candidate));
    case 'contains':
      return contains(condition, actual);
    case 'regex':
      if (typeof actual !== 'string') throw typeMismatch(condition, actual);
      (condition.pattern as RegExp).lastIndex = 0;
      return (condition.pattern as RegExp).test(actual);
  }
}

/** Python orders numbers and booleans (True is 1) against a number and raises TypeError for anything else. */
function orderable(condition: ParsedCondition, actual: unknown): number {
  if (typeof actual === 'number' || typeof actual === 'boolean') return Number(actual);
  throw typeMismatch(condition, actual);
}

/** Python's `value in actual`: a substring of a string, an element of a list, a key of an object. */
function contains(condition: ParsedCondition, actual: unknown): boolean {
  const expected = condition.value;
  if (typeof actual === 'string') {
    if (typeof expected !== 'string') throw typeMismatch(condition, actual);
    return actual.includes(expected);
  }
  if (Array.isArray(actual)) return actual.some((element) => pythonEquals(expected, element));
  if (isJsonObject(actual)) {
    // A list is unhashable, so Python cannot look it up among a dict's keys.
    if (Array.isArray(expected)) throw typeMismatch(condition, actual);
    return typeof expected === 'string' && Object.hasOwn(actual, expected);
  }
  throw typeMismatch(condition, actual);
}

function typeMismatch(condition: ParsedCondition, actual: unknown): UnevaluableConditionError {
  return new UnevaluableConditionError(
    `"${condition.op}" cannot compare the ${jsonTypeOf(actual)} at "${condition.attr}" with ${JSON.stringify(condition.value)}`,
  );
}

/** Python's ==: booleans are the integers 0 and 1, lists and objects compare by content. */
function pythonEquals(left: unknown, right: unknown): boolean {
  const isNumeric = (value: unknown) => typeof value === 'number' || typeof value === 'boolean';
  if (isNumeric(left) && isNumeric(right)) return Number(left) === Number(right);
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((element, index) => pythonEquals(element, right[index]))
    );
  }
  if (isJsonObject(left) && isJsonObject(right)) {
    const leftKeys = Object.keys(left);
    return (
      leftKeys.length === Object.keys(right).length &&
      leftKeys.every((key) => Object.hasOwn(right, key) && pythonEquals(left[key], right[key]))
    );
  }
  return left === right;
}

// Shared

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'object' : typeof value;
}

function at(location: string, problem: string): string {
  return location === '' ? problem : `${location}: ${problem}`;
}

function quoteAll(keys: string[]): string {
  return keys.map((key) => `"${key}"`).join(', ');
}
