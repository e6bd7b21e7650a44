/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- template values are whatever the context and the template make them; nunjucks ships no types */
import { compileFunction } from 'node:vm';
import { checkTemplateTree, installJinjaCompatOnce, normaliseTemplateSource, parseTemplate, type TemplateNode } from './template-syntax';

/**
 * The nunjucks environment of the render process: Jinja2 behaviour nunjucks lacks (filters, tests,
 * Python methods, None/True/False output), the attribute guard, the incremental output cap, and the
 * compile step that turns a checked tree into code without `new Function`. Runs only inside the
 * render process (render-process.ts); see config-template-renderer.ts for the Jinja compatibility.
 */

/** A plugin's filters: `{<name>: {args: [<parameter names>], fn}}`, the default export of a filter module. */
export type TemplateFilters = Readonly<Record<string, { readonly args: readonly string[]; readonly fn: (...args: any[]) => unknown }>>;

export interface JinjaRenderSettings {
  maxOutputBytes: number;
  maxRange: number;
  trimBlocks: boolean;
  lstripBlocks: boolean;
  keepTrailingNewline: boolean;
}

/** A failure with the kind and position the parent reports. */
export class RenderFailure extends Error {
  constructor(
    readonly kind: 'syntax' | 'render' | 'output_too_large',
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

// Taken now: the render process removes `Buffer` from the global object before a template runs.
const byteLength = Buffer.byteLength.bind(Buffer);
const utf8Length = (text: string): number => byteLength(text, 'utf8');
const hasOwn = (obj: unknown, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(obj, key);

// --- attribute guard -------------------------------------------------------------------------------

const BLOCKED_NAMES = new Set(['constructor', 'prototype', 'caller', 'callee', 'arguments']);
function isBlockedName(key: unknown): boolean {
  return typeof key === 'string' && (BLOCKED_NAMES.has(key) || key.startsWith('__'));
}
function toKey(val: unknown): string | number {
  // Coerce once, then use the coerced primitive both for the check and for the lookup.
  const key = typeof val === 'number' ? val : String(val);
  if (isBlockedName(key)) throw new Error(`access to attribute "${String(key)}" is not allowed in config templates`);
  return key;
}
function isDict(obj: unknown): obj is Record<string, unknown> {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
  const proto: unknown = Object.getPrototypeOf(obj);
  return proto === Object.prototype || proto === null;
}

// --- Python methods --------------------------------------------------------------------------------

function pyStrip(value: unknown, chars: unknown, left: boolean, right: boolean): string {
  let s = String(value);
  if (chars === undefined || chars === null) {
    if (left) s = s.replace(/^\s+/, '');
    if (right) s = s.replace(/\s+$/, '');
    return s;
  }
  const set = new Set(String(chars));
  let start = 0;
  let end = s.length;
  if (left) while (start < end && set.has(s[start])) start++;
  if (right) while (end > start && set.has(s[end - 1])) end--;
  return s.slice(start, end);
}
function oneOf(s: unknown, candidates: unknown, test: (s: string, c: string) => boolean): boolean {
  const list = Array.isArray(candidates) ? candidates : [candidates];
  return list.some((c) => test(String(s), String(c)));
}

function toList(value: any): any[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || value instanceof String) return Array.from(String(value));
  if (typeof value === 'object' && typeof value[Symbol.iterator] === 'function') return Array.from(value as Iterable<unknown>);
  if (typeof value === 'object') return Object.keys(value);
  throw new Error('value is not iterable');
}

const STR_METHODS: Record<string, (this: string, ...args: any[]) => unknown> = {
  upper() {
    return String(this).toUpperCase();
  },
  lower() {
    return String(this).toLowerCase();
  },
  strip(chars) {
    return pyStrip(this, chars, true, true);
  },
  lstrip(chars) {
    return pyStrip(this, chars, true, false);
  },
  rstrip(chars) {
    return pyStrip(this, chars, false, true);
  },
  startswith(prefix) {
    return oneOf(this, prefix, (s, p) => s.startsWith(p));
  },
  endswith(suffix) {
    return oneOf(this, suffix, (s, p) => s.endsWith(p));
  },
  split(sep, maxsplit) {
    const s = String(this);
    const limit = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Infinity;
    if (sep === undefined || sep === null) {
      const out: string[] = [];
      let rest = s.replace(/^\s+/, '');
      while (rest.length > 0) {
        if (out.length >= limit) {
          out.push(rest);
          break;
        }
        const m = /\s+/.exec(rest);
        if (!m) {
          out.push(rest);
          break;
        }
        out.push(rest.slice(0, m.index));
        rest = rest.slice(m.index + m[0].length);
      }
      return out;
    }
    const separator = String(sep);
    if (separator === '') throw new Error('split(): empty separator');
    const parts = s.split(separator);
    if (parts.length - 1 <= limit) return parts;
    return parts.slice(0, limit).concat([parts.slice(limit).join(separator)]);
  },
  replace(old, replacement, count) {
    const parts = String(this).split(String(old));
    const n = typeof count === 'number' && count >= 0 ? count : Infinity;
    if (parts.length - 1 <= n) return parts.join(String(replacement));
    return parts.slice(0, n + 1).join(String(replacement)) + String(old) + parts.slice(n + 1).join(String(old));
  },
  join(items) {
    return toList(items)
      .map((x) => String(x))
      .join(String(this));
  },
  find(sub) {
    return String(this).indexOf(String(sub));
  },
  count(sub) {
    const needle = String(sub);
    return needle === '' ? String(this).length + 1 : String(this).split(needle).length - 1;
  },
  isdigit() {
    return /^[0-9]+$/.test(String(this));
  },
};
const LIST_METHODS: Record<string, (this: any[], ...args: any[]) => unknown> = {
  append(x) {
    this.push(x);
    return null;
  },
  extend(items) {
    for (const x of toList(items)) this.push(x);
    return null;
  },
  insert(i, x) {
    this.splice(i, 0, x);
    return null;
  },
  pop(i) {
    if (this.length === 0) throw new Error('pop from empty list');
    if (i === undefined) return this.pop();
    let index = i;
    if (index < 0) index += this.length;
    if (index < 0 || index >= this.length) throw new Error('pop index out of range');
    return this.splice(index, 1)[0];
  },
  remove(x) {
    const i = this.indexOf(x);
    if (i === -1) throw new Error('list.remove(x): x not in list');
    this.splice(i, 1);
    return null;
  },
  index(x) {
    const i = this.indexOf(x);
    if (i === -1) throw new Error('list.index(x): x not in list');
    return i;
  },
  count(x) {
    return this.filter((y) => y === x).length;
  },
};
const DICT_METHODS: Record<string, (this: Record<string, any>, ...args: any[]) => unknown> = {
  items() {
    return Object.keys(this).map((k) => [k, this[k]]);
  },
  keys() {
    return Object.keys(this);
  },
  values() {
    return Object.keys(this).map((k) => this[k]);
  },
  get(key, dflt) {
    const k = toKey(key);
    if (hasOwn(this, k)) return this[k];
    return dflt === undefined ? null : dflt;
  },
  update(other) {
    if (other !== null && typeof other === 'object') {
      for (const k of Object.keys(other)) if (!isBlockedName(k)) this[k] = other[k];
    }
    return null;
  },
  pop(key, dflt) {
    const k = toKey(key);
    if (hasOwn(this, k)) {
      const v = this[k];
      delete this[k];
      return v;
    }
    if (dflt !== undefined) return dflt;
    throw new Error(`KeyError: ${String(k)}`);
  },
  setdefault(key, dflt) {
    const k = toKey(key);
    if (!hasOwn(this, k)) this[k] = dflt === undefined ? null : dflt;
    return this[k];
  },
};

// --- tojson --------------------------------------------------------------------------------------

function pyJson(value: unknown, indent: unknown, isString: (v: unknown) => boolean): string {
  const pad = indent === undefined || indent === null ? null : typeof indent === 'number' ? ' '.repeat(indent) : String(indent);
  const seen = new Set<unknown>();
  const quote = (s: unknown) =>
    JSON.stringify(String(s)).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  const ser = (v: any, depth: number): string => {
    if (v === null || v === undefined) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    if (typeof v === 'bigint') return String(v);
    if (isString(v)) return quote(v);
    if (v instanceof Date) return quote(v.toISOString());
    if (typeof v !== 'object') throw new Error(`tojson: object of type ${typeof v} is not JSON serializable`);
    if (seen.has(v)) throw new Error('tojson: circular reference detected');
    seen.add(v);
    let entries: string[];
    let open: string;
    let close: string;
    if (Array.isArray(v) || v instanceof Set) {
      entries = Array.from(v as Iterable<unknown>).map((x) => ser(x, depth + 1));
      open = '[';
      close = ']';
    } else {
      const map: Map<unknown, unknown> = v instanceof Map ? v : new Map(Object.keys(v).map((k) => [k, v[k]]));
      const keys = Array.from(map.keys()).map(String).sort();
      entries = keys.map((k) => quote(k) + ': ' + ser(map.get(k), depth + 1));
      open = '{';
      close = '}';
    }
    seen.delete(v);
    if (entries.length === 0) return open + close;
    if (pad === null) return open + entries.join(', ') + close;
    const inner = '\n' + pad.repeat(depth + 1);
    return open + inner + entries.join(',' + inner) + '\n' + pad.repeat(depth) + close;
  };
  // Same HTML-safe escaping as Jinja's htmlsafe_json_dumps.
  return ser(value, 0).replace(/[<>&']/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// --- the environment -------------------------------------------------------------------------------

export interface JinjaRenderer {
  /** Names of every filter the environment has (Jinja's, nunjucks', the plugins'). */
  readonly filterNames: ReadonlySet<string>;
  /** Parses, checks and compiles a template; nothing of the template runs yet. */
  compile(source: string): CompiledTemplate;
}

export interface CompiledTemplate {
  render(context: Record<string, unknown>): string;
}

/**
 * Sets up nunjucks (a module instance of its own: this patches its runtime and compiler) for
 * Jinja-compatible, guarded rendering with the given limits and plugin filters.
 */
export function createJinjaRenderer(
  { nunjucks, transformer }: { nunjucks: any; transformer: { transform(root: unknown, asyncFilters: unknown[], name: string): unknown } },
  settings: JinjaRenderSettings,
  pluginFilters: readonly TemplateFilters[],
): JinjaRenderer {
  const runtime = nunjucks.runtime;
  const lib = nunjucks.lib;
  const { maxOutputBytes, maxRange } = settings;
  const isString = (obj: unknown): boolean => typeof obj === 'string' || obj instanceof runtime.SafeString;

  installJinjaCompatOnce(nunjucks); // slices (a[1:], a[::-1]) and True/False/None; lookups replaced below
  const compatMemberLookup = runtime.memberLookup;

  function memberLookup(this: unknown, obj: any, val: unknown, ...slice: unknown[]): unknown {
    if (slice.length === 2) {
      // Jinja slice obj[start:stop:step]; the compat helper reads elements back through us.
      const items = compatMemberLookup.call(this, obj, val, ...slice);
      return isString(obj) ? items.join('') : items;
    }
    if (obj === undefined || obj === null) return undefined;
    let key = toKey(val);
    if (typeof key === 'number') {
      if (key < 0 && (Array.isArray(obj) || isString(obj))) key += obj.length;
      return isString(obj) ? String(obj)[key] : obj[key];
    }
    if (Array.isArray(obj)) {
      if (hasOwn(LIST_METHODS, key)) return LIST_METHODS[key].bind(obj);
    } else if (isString(obj)) {
      if (hasOwn(STR_METHODS, key)) return STR_METHODS[key].bind(String(obj));
    } else if (isDict(obj) && !hasOwn(obj, key) && hasOwn(DICT_METHODS, key)) {
      // Data keys win over dict methods: nunjucks cannot tell d.items from d['items'].
      return DICT_METHODS[key].bind(obj);
    }
    const value = obj[key];
    if (typeof value === 'function') {
      return function boundMember(...args: unknown[]) {
        return value.apply(obj, args);
      };
    }
    return value;
  }
  runtime.memberLookup = memberLookup;

  runtime.contextOrFrameLookup = function contextOrFrameLookup(context: any, frame: any, name: string): unknown {
    const fromFrame = frame.lookup(name);
    if (fromFrame !== undefined) return fromFrame;
    // Own properties only: no Object.prototype members such as "constructor" or "toString".
    if (hasOwn(context.ctx, name)) return context.ctx[name];
    if (hasOwn(context.env.globals, name)) return context.env.globals[name];
    switch (name) {
      case 'True':
        return true;
      case 'False':
        return false;
      case 'None':
        return null;
      default:
        return undefined;
    }
  };

  // Jinja prints None/True/False, not ''/true/false.
  const origSuppressValue = runtime.suppressValue;
  runtime.suppressValue = function suppressValue(val: unknown, autoescape: boolean): unknown {
    const shown = val === null ? 'None' : val === true ? 'True' : val === false ? 'False' : val;
    return origSuppressValue(shown, autoescape);
  };

  // Incremental output cap: every output statement is followed by a length check of its buffer
  // (each macro, {% set %} block and {% filter %} body has its own), so a runaway loop stops at
  // maxOutputBytes characters instead of building a 100 MB string.
  let outputTooLarge = false;
  runtime.checkOutputSize = function checkOutputSize(buffer: string): void {
    // UTF-16 length <= UTF-8 byte length, so this never fires early; the exact byte check is at the end.
    if (buffer.length > maxOutputBytes) {
      outputTooLarge = true;
      throw new Error(`rendered output exceeds ${maxOutputBytes} bytes`);
    }
  };
  const Compiler = nunjucks.compiler.Compiler;
  const origCompileOutput = Compiler.prototype.compileOutput;
  Compiler.prototype.compileOutput = function compileOutput(this: any, node: unknown, frame: unknown): void {
    origCompileOutput.call(this, node, frame);
    this._emitLine(`runtime.checkOutputSize(${this.buffer});`);
  };

  const env = new nunjucks.Environment([], {
    autoescape: false,
    throwOnUndefined: false,
    trimBlocks: settings.trimBlocks,
    lstripBlocks: settings.lstripBlocks,
    dev: true, // keep TemplateError objects (line/column, cause) instead of flattened Errors
  });

  function attrGetter(attribute: unknown): (item: unknown) => unknown {
    const parts = String(attribute)
      .split('.')
      .map((p) => (/^[0-9]+$/.test(p) ? Number(p) : p));
    parts.forEach(toKey);
    return (item) => parts.reduce((obj: unknown, part) => memberLookup(obj, part), item);
  }
  function kwargsOf(args: any[]): Record<string, any> {
    const last = args[args.length - 1];
    if (last && hasOwn(last, '__keywords')) {
      args.pop();
      return last;
    }
    return {};
  }
  function compare(a: any, b: any, caseSensitive: boolean): number {
    if (!caseSensitive && typeof a === 'string' && typeof b === 'string') {
      a = a.toLowerCase();
      b = b.toLowerCase();
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const optionalGetter = (attribute: unknown) =>
    attribute === undefined || attribute === null ? (x: unknown) => x : attrGetter(attribute);
  function minMax(sign: number) {
    return runtime.makeMacro(['value', 'case_sensitive', 'attribute'], [], (value: unknown, caseSensitive: unknown, attribute: unknown) => {
      const items = toList(value);
      if (items.length === 0) return undefined;
      const get = optionalGetter(attribute);
      return items.reduce((best, x) => (sign * compare(get(x), get(best), !!caseSensitive) > 0 ? x : best));
    });
  }
  function selectOrRejectAttr(expected: boolean) {
    return function (this: unknown, value: unknown, attribute: unknown, testName?: unknown, ...testArgs: unknown[]) {
      const get = attrGetter(attribute);
      if (testName === undefined) return toList(value).filter((x) => !!get(x) === expected);
      const test = env.getTest(testName);
      return toList(value).filter((x) => !!test.apply(this, [get(x), ...testArgs]) === expected);
    };
  }

  env.addFilter(
    'tojson',
    runtime.makeMacro(['value', 'indent'], [], (value: unknown, indent: unknown) => runtime.markSafe(pyJson(value, indent, isString))),
  );
  env.addFilter('map', function (this: unknown, value: unknown, ...rest: any[]) {
    const args = [...rest];
    const kwargs = kwargsOf(args);
    const items = toList(value);
    if (kwargs.attribute !== undefined) {
      const get = attrGetter(kwargs.attribute);
      return items.map((x) => {
        const v = get(x);
        return v === undefined ? kwargs.default : v;
      });
    }
    if (args.length === 0) throw new Error('map: a filter name or attribute= is required');
    const filter = env.getFilter(String(args[0]));
    return items.map((x) => filter.apply(this, [x, ...args.slice(1)]));
  });
  env.addFilter('selectattr', selectOrRejectAttr(true));
  env.addFilter('rejectattr', selectOrRejectAttr(false));
  env.addFilter('attr', (obj: unknown, name: unknown) => memberLookup(obj, name));
  env.addFilter('items', (value: any) => {
    if (value === undefined || value === null) return [];
    if (value instanceof Map) return Array.from(value.entries());
    return Object.keys(value).map((k) => [k, value[k]]);
  });
  env.addFilter('list', (value: unknown) => toList(value).slice());
  env.addFilter('count', (value: unknown) => (value === undefined || value === null ? 0 : toList(value).length));
  env.addFilter('min', minMax(-1));
  env.addFilter('max', minMax(1));
  env.addFilter(
    'unique',
    runtime.makeMacro(['value', 'case_sensitive', 'attribute'], [], (value: unknown, caseSensitive: unknown, attribute: unknown) => {
      const get = optionalGetter(attribute);
      const seenKeys = new Set<unknown>();
      return toList(value).filter((x) => {
        let k = get(x);
        if (!caseSensitive && typeof k === 'string') k = k.toLowerCase();
        if (seenKeys.has(k)) return false;
        seenKeys.add(k);
        return true;
      });
    }),
  );
  env.addFilter(
    'join',
    runtime.makeMacro(['value', 'd', 'attribute'], [], (value: unknown, d: unknown, attribute: unknown) => {
      const get = optionalGetter(attribute);
      return toList(value)
        .map((x) => {
          const v = get(x);
          return v === undefined || v === null ? '' : String(v);
        })
        .join(d === undefined || d === null ? '' : String(d));
    }),
  );
  env.addFilter(
    'sum',
    runtime.makeMacro(['iterable', 'attribute', 'start'], [], (iterable: unknown, attribute: unknown, start: unknown) => {
      const get = optionalGetter(attribute);
      // eslint-disable-next-line @typescript-eslint/restrict-plus-operands -- `sum` adds whatever values the template gives it
      return toList(iterable).reduce((acc, x) => acc + get(x), start === undefined || start === null ? 0 : start);
    }),
  );
  env.addFilter(
    'groupby',
    runtime.makeMacro(
      ['value', 'attribute', 'default', 'case_sensitive'],
      [],
      (value: unknown, attribute: unknown, dflt: unknown, caseSensitive: unknown) => {
        const get = attrGetter(attribute);
        const keyOf = (x: unknown) => {
          const k = get(x);
          return k === undefined ? dflt : k;
        };
        const norm = (k: unknown) => (!caseSensitive && typeof k === 'string' ? k.toLowerCase() : k);
        const sorted = toList(value)
          .slice()
          .sort((a, b) => compare(norm(keyOf(a)), norm(keyOf(b)), true));
        const groups: any[] = [];
        for (const x of sorted) {
          const k = keyOf(x);
          const last = groups[groups.length - 1];
          if (last && norm(last.grouper) === norm(k)) last.list.push(x);
          else {
            // Works both as group.grouper / group.list and as "for grouper, list in ...".
            const g: any = [k, [x]];
            g.grouper = k;
            g.list = g[1];
            groups.push(g);
          }
        }
        return groups;
      },
    ),
  );
  env.addFilter(
    'indent',
    runtime.makeMacro(['s', 'width', 'first', 'blank'], [], (s: unknown, width: unknown, first: unknown, blank: unknown) => {
      const ind = typeof width === 'string' ? width : ' '.repeat(width === undefined || width === null ? 4 : Number(width));
      const lines = (String(s === undefined || s === null ? '' : s) + '\n').split(/\r\n|\r|\n/);
      lines.pop();
      const out = blank
        ? lines.join('\n' + ind)
        : lines[0] +
          lines
            .slice(1)
            .map((l) => '\n' + (l ? ind + l : l))
            .join('');
      return first ? ind + out : out;
    }),
  );
  env.addFilter(
    'truncate',
    runtime.makeMacro(
      ['s', 'length', 'killwords', 'end', 'leeway'],
      [],
      (s: unknown, length: unknown, killwords: unknown, end: unknown, leeway: unknown) => {
        const text = String(s === undefined || s === null ? '' : s);
        const max = length === undefined || length === null ? 255 : Number(length);
        const ending = end === undefined || end === null ? '...' : String(end);
        const slack = leeway === undefined || leeway === null ? 5 : Number(leeway);
        if (text.length <= max + slack) return text;
        const head = text.slice(0, Math.max(0, max - ending.length));
        if (killwords) return head + ending;
        const cut = head.lastIndexOf(' ');
        return (cut === -1 ? head : head.slice(0, cut)) + ending;
      },
    ),
  );

  env.addTest('none', (v: unknown) => v === null);
  env.addTest('boolean', (v: unknown) => typeof v === 'boolean');
  env.addTest('true', (v: unknown) => v === true);
  env.addTest('false', (v: unknown) => v === false);
  env.addTest('integer', (v: unknown) => typeof v === 'number' && Number.isInteger(v));
  env.addTest('float', (v: unknown) => typeof v === 'number' && !Number.isInteger(v));
  env.addTest('sequence', (v: unknown) => Array.isArray(v) || isString(v));
  env.addTest('in', (v: unknown, container: unknown) => lib.inOperator(v, container));

  env.addGlobal('range', function range(start: unknown, stop?: unknown, step?: unknown) {
    let [from, to, by] = [start, stop, step];
    if (to === undefined) [from, to] = [0, start];
    if (by === undefined) by = 1;
    if (![from, to, by].every((n) => typeof n === 'number' && Number.isFinite(n))) throw new Error('range() arguments must be numbers');
    const [a, b, c] = [from, to, by] as number[];
    if (c === 0) throw new Error('range() step must not be zero');
    const count = Math.max(0, Math.ceil((b - a) / c));
    if (count > maxRange) throw new Error(`range() too big: ${count} items, the limit is ${maxRange}`);
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) out[i] = a + i * c;
    return out;
  });
  env.addGlobal('dict', function dict(...args: unknown[]) {
    const out: Record<string, unknown> = {};
    for (const arg of args) {
      if (arg !== null && typeof arg === 'object') {
        for (const k of Object.keys(arg)) if (!isBlockedName(k)) out[k] = (arg as Record<string, unknown>)[k];
      }
    }
    return out;
  });

  for (const filters of pluginFilters) {
    for (const name of Object.keys(filters)) env.addFilter(name, runtime.makeMacro([...filters[name].args], [], filters[name].fn));
  }

  const filterNames: ReadonlySet<string> = new Set(Object.keys(env.filters));

  return {
    filterNames,
    compile(templateCode: string): CompiledTemplate {
      const source = normaliseTemplateSource(String(templateCode), settings.keepTrailingNewline);
      const parsed = parseTemplate(nunjucks, source, settings);
      checkTemplateTree(parsed, filterNames);
      let code: string;
      try {
        // The tree that was checked is the one compiled (nunjucks' own compile would parse again).
        const tree = transformer.transform(parsed, [], 'config-template') as TemplateNode;
        checkTemplateTree(tree, filterNames);
        const compiler = new Compiler('config-template', false);
        compiler.compile(tree);
        code = compiler.getCode();
      } catch (error) {
        if ((error as Error).name === 'ConfigTemplateError') throw error;
        const { lineno, colno } = error as { lineno?: unknown; colno?: unknown };
        throw new RenderFailure(
          'syntax',
          innermost(error).message,
          typeof lineno === 'number' ? lineno : undefined,
          typeof colno === 'number' ? colno : undefined,
        );
      }
      // Compiled as a function of its own, not with `new Function` (code generation from strings is
      // off in the render process) and without a dynamic import() hook: import() in it fails.
      const props = compileFunction(code, [], { filename: 'config-template' })();
      const template = new nunjucks.Template({ type: 'code', obj: props }, env, 'config-template', true);
      return {
        render(context: Record<string, unknown>): string {
          let output: string;
          try {
            output = template.render({ ...context });
          } catch (error) {
            if (outputTooLarge) throw new RenderFailure('output_too_large', `Rendered output exceeds ${maxOutputBytes} bytes`);
            const info = innermost(error);
            if (info.root instanceof RangeError && /Invalid string length|Invalid array length/.test(info.root.message)) {
              throw new RenderFailure('output_too_large', `Rendered output exceeds ${maxOutputBytes} bytes (${info.root.message})`);
            }
            throw new RenderFailure('render', info.message, info.line, info.column);
          }
          if (output.length > maxOutputBytes || utf8Length(output) > maxOutputBytes) {
            throw new RenderFailure('output_too_large', `Rendered output exceeds ${maxOutputBytes} bytes`);
          }
          return output;
        },
      };
    },
  };
}

/**
 * nunjucks may wrap a render error several times (TemplateError -> TemplateError -> original
 * Error); the deepest TemplateError has the most precise position. Render positions are 0-based.
 */
function innermost(err: any): { message: string; line?: number; column?: number; root: any } {
  let line: number | undefined;
  let column: number | undefined;
  let current = err;
  for (let depth = 0; depth < 10 && current && current.cause; depth++) {
    if (typeof current.lineno === 'number') {
      line = current.lineno + 1;
      column = typeof current.colno === 'number' ? current.colno + 1 : undefined;
    }
    current = current.cause;
  }
  const message = String(current && current.message !== undefined ? current.message : current);
  return { message: message.replace(/^\(config-template\)[^\n]*\n\s*/, ''), line, column, root: current };
}
