import { ConfigTemplateError } from './config-template-error';

/**
 * The syntax check every config template passes before nunjucks compiles it: at save (each model
 * field holding a template), in the server before a render (rows stored before the check existed),
 * and again in the render process on the tree it compiles.
 *
 * nunjucks compiles a template to JavaScript source and writes several names from the template into
 * that source without escaping them (variable, loop, macro, argument, block, filter and test
 * names, and the label of a called expression), while its lexer lets a name contain `"`, `` ` ``,
 * `&` or `\`. A name that breaks out of the generated string literal runs as code. The check walks
 * the parsed tree and accepts a name only when it matches {@link TEMPLATE_NAME}, so nothing but
 * plain identifiers reaches the generated code. String literals are escaped by nunjucks and may
 * hold anything, except where nunjucks writes them out unescaped (a test given as a string, the
 * label of a called expression).
 */

/** A name a template may use: a Jinja identifier (ASCII). */
export const TEMPLATE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The parts of a parsed nunjucks node the check reads. */
export interface TemplateNode {
  readonly typename: string;
  readonly fields: readonly string[];
  readonly lineno: number;
  readonly colno: number;
  readonly children?: readonly TemplateNode[];
  readonly [field: string]: unknown;
}

/** The parts of the nunjucks module the check uses. */
export interface NunjucksParsing {
  parser: { parse(source: string, extensions: unknown[], options: object): TemplateNode };
  installJinjaCompat(): void;
}

export interface TemplateSyntaxOptions {
  trimBlocks?: boolean;
  lstripBlocks?: boolean;
  /** Filters the environment has; any other filter name is refused. Without it, filter names are only checked for form. */
  knownFilters?: ReadonlySet<string>;
}

/** Nodes nunjucks compiles that config templates do not allow, with the message naming them. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  Include: '{% include %} is not supported (config templates cannot load other templates)',
  Import: '{% import %} is not supported (config templates cannot load other templates)',
  FromImport: '{% from ... import %} is not supported (config templates cannot load other templates)',
  Extends: '{% extends %} is not supported (config templates cannot load other templates)',
  AsyncEach: '{% asyncEach %} is not supported',
  AsyncAll: '{% asyncAll %} is not supported',
  IfAsync: '{% ifAsync %} is not supported',
  FilterAsync: 'asynchronous filters are not supported',
  CallExtension: 'extension tags are not supported',
  CallExtensionAsync: 'extension tags are not supported',
};

/** Comparison operators the compiler knows (anything else would be written out as `undefined`). */
const COMPARE_OPERATORS = new Set(['==', '===', '!=', '!==', '<', '>', '<=', '>=']);

/** What nunjucks writes between quotes without escaping backslashes or line breaks must hold none. */
const UNSAFE_IN_GENERATED_STRING = /[\\\n\r\u2028\u2029]/;

/** Jinja's line handling, applied before parsing: CRLF/CR become LF, one trailing newline goes unless kept. */
export function normaliseTemplateSource(source: string, keepTrailingNewline: boolean): string {
  const normalised = source.replace(/\r\n?/g, '\n');
  return !keepTrailingNewline && normalised.endsWith('\n') ? normalised.slice(0, -1) : normalised;
}

const compatInstalled = new WeakSet<object>();

/** Installs nunjucks' Jinja compatibility (slice syntax, True/False/None) once per nunjucks instance: a second install would wrap the first. */
export function installJinjaCompatOnce(nunjucks: NunjucksParsing): void {
  if (compatInstalled.has(nunjucks)) return;
  nunjucks.installJinjaCompat();
  compatInstalled.add(nunjucks);
}

/** Parses a template as the renderer does (Jinja compatibility on: slices, True/False/None). */
export function parseTemplate(nunjucks: NunjucksParsing, source: string, options: TemplateSyntaxOptions = {}): TemplateNode {
  installJinjaCompatOnce(nunjucks);
  try {
    return nunjucks.parser.parse(source, [], { trimBlocks: options.trimBlocks === true, lstripBlocks: options.lstripBlocks === true });
  } catch (error) {
    // The parser reports 1-based positions already.
    const { message, lineno, colno } = error as { message?: unknown; lineno?: unknown; colno?: unknown };
    throw new ConfigTemplateError(
      'syntax',
      String(message),
      typeof lineno === 'number' ? lineno : undefined,
      typeof colno === 'number' ? colno : undefined,
    );
  }
}

/** Parses and checks a template; throws a `syntax` ConfigTemplateError naming the first problem and its position. */
export function checkTemplateSource(nunjucks: NunjucksParsing, source: string, options: TemplateSyntaxOptions = {}): TemplateNode {
  const root = parseTemplate(nunjucks, source, options);
  checkTemplateTree(root, options.knownFilters);
  return root;
}

function isNode(value: unknown): value is TemplateNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TemplateNode).typename === 'string' &&
    Array.isArray((value as TemplateNode).fields)
  );
}

function failAt(node: TemplateNode, message: string): never {
  // Node positions are 0-based.
  throw new ConfigTemplateError(
    'syntax',
    message,
    typeof node.lineno === 'number' ? node.lineno + 1 : undefined,
    typeof node.colno === 'number' ? node.colno + 1 : undefined,
  );
}

function requireName(node: unknown, what: string, at: TemplateNode): string {
  if (!isNode(node) || node.typename !== 'Symbol') failAt(isNode(node) ? node : at, `${what} must be a plain name`);
  const value = node.value;
  if (typeof value !== 'string' || !TEMPLATE_NAME.test(value)) {
    const shown = String(value).length > 40 ? `${String(value).slice(0, 40)}…` : String(value);
    failAt(node, `${what} ${JSON.stringify(shown)} is not allowed: names are letters, digits and "_", not starting with a digit`);
  }
  return value;
}

/** The label nunjucks gives a called expression in error messages (compiler `_getNodeName`), which it writes into the code. */
function calleeLabel(node: unknown): string {
  if (!isNode(node)) return '';
  switch (node.typename) {
    case 'Symbol':
      return String(node.value);
    case 'FunCall':
      return `(${calleeLabel(node.name)})`;
    case 'LookupVal':
      return `${calleeLabel(node.target)}[${calleeLabel(node.val)}]`;
    case 'Literal':
      return String(node.value);
    default:
      return '';
  }
}

function childrenOf(node: TemplateNode): unknown[] {
  if (node.typename === 'NodeList' || Array.isArray(node.children)) {
    // NodeList and its subclasses (Array, Dict, KeywordArgs, Group, Output, Root …) keep their parts in `children`.
    const own = node.fields.filter((field) => field !== 'children').map((field) => node[field]);
    return [...own, ...(node.children ?? [])];
  }
  return node.fields.map((field) => node[field]);
}

function checkKeywordArgs(node: TemplateNode): void {
  for (const pair of node.children ?? []) {
    if (!isNode(pair) || pair.typename !== 'Pair') failAt(node, 'malformed keyword arguments');
    requireName(pair.key, 'a keyword argument name', pair);
  }
}

function checkNode(node: TemplateNode, knownFilters: ReadonlySet<string> | undefined): void {
  const unsupported = UNSUPPORTED[node.typename];
  if (unsupported !== undefined) failAt(node, unsupported);
  switch (node.typename) {
    case 'Symbol':
      requireName(node, 'a name', node);
      break;
    case 'Literal':
      if (node.value instanceof RegExp) failAt(node, 'regular expression literals are not supported');
      if (!['string', 'number', 'boolean'].includes(typeof node.value) && node.value !== null) failAt(node, 'unsupported literal');
      break;
    case 'TemplateData':
      if (typeof node.value !== 'string' && node.value !== null && node.value !== undefined) failAt(node, 'malformed template text');
      break;
    case 'CompareOperand':
      if (!COMPARE_OPERATORS.has(String(node.type))) failAt(node, `unknown comparison operator ${JSON.stringify(String(node.type))}`);
      break;
    case 'Set':
      for (const target of (node.targets as unknown[]) ?? []) {
        if (!isNode(target) || target.typename !== 'Symbol') {
          failAt(node, '{% set %} can only assign plain variable names (no "{% set a.b = ... %}")');
        }
        requireName(target, 'a {% set %} target', node);
      }
      break;
    case 'For': {
      const name = node.name;
      if (isNode(name) && name.typename === 'Array') {
        for (const part of name.children ?? []) requireName(part, 'a loop variable', node);
      } else requireName(name, 'a loop variable', node);
      const iterable = node.arr;
      if (isNode(iterable) && iterable.typename === 'InlineIf' && !iterable.else_) {
        failAt(
          node,
          'loop filtering ("{% for x in items if condition %}") is not supported; use selectattr/select or an {% if %} inside the loop',
        );
      }
      break;
    }
    case 'Macro':
    case 'Caller': {
      requireName(node.name, 'a macro name', node);
      const args = isNode(node.args) ? (node.args.children ?? []) : [];
      args.forEach((arg, index) => {
        if (index === args.length - 1 && isNode(arg) && arg.typename === 'KeywordArgs') return; // checked as KeywordArgs
        requireName(arg, 'a macro argument', node);
      });
      break;
    }
    case 'KeywordArgs':
      checkKeywordArgs(node);
      break;
    case 'Filter': {
      const name = requireName(node.name, 'a filter name', node);
      if (knownFilters && !knownFilters.has(name)) failAt(node.name as TemplateNode, `unknown filter "${name}"`);
      break;
    }
    case 'Is': {
      // `is none` / `is true` parse as literals; nunjucks names the test after the value (its "null" test …).
      const test = node.right;
      if (isNode(test) && test.typename === 'FunCall') requireName(test.name, 'a test name', node);
      else if (!(isNode(test) && test.typename === 'Literal' && typeof test.value !== 'string')) requireName(test, 'a test name', node);
      break;
    }
    case 'FunCall':
      if (UNSAFE_IN_GENERATED_STRING.test(calleeLabel(node.name))) {
        failAt(node, 'a called expression may not contain backslashes or line breaks in its names or keys');
      }
      break;
    case 'Block':
      requireName(node.name, 'a block name', node);
      break;
    case 'Super':
      requireName(node.blockName, 'a block name', node);
      requireName(node.symbol, 'a name', node);
      break;
  }
}

/** Checks a parsed (or transformed) tree; throws a `syntax` ConfigTemplateError at the first problem. */
export function checkTemplateTree(root: TemplateNode, knownFilters?: ReadonlySet<string>): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...[...(value as unknown[])].reverse());
      continue;
    }
    if (!isNode(value)) continue;
    checkNode(value, knownFilters);
    pending.push(...childrenOf(value).reverse());
  }
}

/** `line N: message` for a field's error list (the last line when the problem is the end of the template). */
export function templateProblem(error: ConfigTemplateError, source: string): string {
  const line = error.line ?? source.split('\n').length;
  return `line ${line}: ${error.message}`;
}
