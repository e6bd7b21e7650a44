/**
 * Source code of the worker thread that compiles and renders one config template.
 *
 * It is kept as a plain JavaScript string (run with `new Worker(source, { eval: true })`) rather
 * than as a separate module file so that it works unchanged from `src/` under ts-jest and from the
 * compiled `dist/` tree: there is no `.js` asset to copy and nothing for ts-jest or a coverage
 * instrumenter to rewrite. nunjucks is loaded by the absolute path the parent resolved
 * (`workerData.nunjucksPath`).
 *
 * Protocol (worker -> parent), one message each:
 *   { type: 'started' }                       setup done; the parent starts the render timeout now
 *   { type: 'done', output }                  rendered text (already checked against maxOutputBytes)
 *   { type: 'failed', kind, message, line?, column? }   kind: 'syntax' | 'render' | 'output_too_large'
 *
 * Sandbox layers, in order of strength:
 *   1. The template never sees JavaScript globals: names resolve only to template variables, the
 *      render context (own properties only) and our globals (range, cycler, joiner, dict).
 *   2. `runtime.memberLookup` (every `a.b` / `a[b]` in a template) refuses `constructor`,
 *      `prototype`, `caller`, `callee`, `arguments` and any name starting with `__`; attribute-taking
 *      filters (map, selectattr, join, sum, groupby, unique, min, max, attr) go through the same
 *      guard. Plain nunjucks lets `''.constructor.constructor('return process')()` through.
 *   3. Inside this worker's own V8 realm (not the server's), `Function.prototype.constructor` and the
 *      async/generator variants are replaced by `undefined`, and `process`, `require`, `module`,
 *      `Buffer` … are deleted from the global object after setup, so even a bypass of (2) finds no
 *      Function constructor and no `process` to reach. The worker starts with an empty environment
 *      (`env: {}` in the parent), so no secrets are copied into it either.
 *   4. The environment has no loader, and `{% include/import/from/extends %}` are rejected when the
 *      template is parsed.
 *
 * Output size: every `{{ … }}`/text output statement compiled by nunjucks is followed by a length
 * check of the buffer it appended to (each macro, `{% set %}` block and `{% filter %}` body has its
 * own buffer, all checked), so runaway loops stop at maxOutputBytes characters instead of building a
 * 100 MB string. A single huge value (`'x' * 1e9`-style filters) is caught by the worker's heap limit.
 */
export const CONFIG_TEMPLATE_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const nunjucks = require(workerData.nunjucksPath);
const byteLength = Buffer.byteLength;
const maxOutputBytes = workerData.maxOutputBytes;
const MAX_RANGE = workerData.maxRange;

const runtime = nunjucks.runtime;
const nodes = nunjucks.nodes;
const lib = nunjucks.lib;
const ObjectProto = Object.prototype;
const hasOwn = (obj, key) => ObjectProto.hasOwnProperty.call(obj, key);

class Failure extends Error {
  constructor(kind, message, line, column) {
    super(message);
    this.kind = kind;
    this.line = line;
    this.column = column;
  }
}

// ---------------------------------------------------------------------------------------------
// Attribute guard
// ---------------------------------------------------------------------------------------------
const BLOCKED_NAMES = new Set(['constructor', 'prototype', 'caller', 'callee', 'arguments']);
function isBlockedName(key) {
  return typeof key === 'string' && (BLOCKED_NAMES.has(key) || key.startsWith('__'));
}
function toKey(val) {
  // Coerce once, then use the coerced primitive both for the check and for the lookup.
  const key = typeof val === 'number' ? val : String(val);
  if (isBlockedName(key)) {
    throw new Error('access to attribute "' + key + '" is not allowed in config templates');
  }
  return key;
}
function isDict(obj) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
  const proto = Object.getPrototypeOf(obj);
  return proto === ObjectProto || proto === null;
}
function isString(obj) {
  return typeof obj === 'string' || obj instanceof runtime.SafeString;
}

function pyStrip(s, chars, left, right) {
  s = String(s);
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
function oneOf(s, candidates, test) {
  const list = Array.isArray(candidates) ? candidates : [candidates];
  return list.some((c) => test(String(s), String(c)));
}

// Python str / list / dict methods that Jinja templates commonly call.
const STR_METHODS = {
  upper() { return String(this).toUpperCase(); },
  lower() { return String(this).toLowerCase(); },
  strip(chars) { return pyStrip(this, chars, true, true); },
  lstrip(chars) { return pyStrip(this, chars, true, false); },
  rstrip(chars) { return pyStrip(this, chars, false, true); },
  startswith(prefix) { return oneOf(this, prefix, (s, p) => s.startsWith(p)); },
  endswith(suffix) { return oneOf(this, suffix, (s, p) => s.endsWith(p)); },
  split(sep, maxsplit) {
    const s = String(this);
    const limit = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Infinity;
    if (sep === undefined || sep === null) {
      const out = [];
      let rest = s.replace(/^\s+/, '');
      while (rest.length > 0) {
        if (out.length >= limit) { out.push(rest); break; }
        const m = /\s+/.exec(rest);
        if (!m) { out.push(rest); break; }
        out.push(rest.slice(0, m.index));
        rest = rest.slice(m.index + m[0].length);
      }
      return out;
    }
    sep = String(sep);
    if (sep === '') throw new Error('split(): empty separator');
    const parts = s.split(sep);
    if (parts.length - 1 <= limit) return parts;
    return parts.slice(0, limit).concat([parts.slice(limit).join(sep)]);
  },
  replace(old, replacement, count) {
    const parts = String(this).split(String(old));
    const n = typeof count === 'number' && count >= 0 ? count : Infinity;
    if (parts.length - 1 <= n) return parts.join(String(replacement));
    return parts.slice(0, n + 1).join(String(replacement)) + String(old) + parts.slice(n + 1).join(String(old));
  },
  join(items) { return toList(items).map((x) => String(x)).join(String(this)); },
  find(sub) { return String(this).indexOf(String(sub)); },
  count(sub) { sub = String(sub); return sub === '' ? String(this).length + 1 : String(this).split(sub).length - 1; },
  isdigit() { return /^[0-9]+$/.test(String(this)); },
};
const LIST_METHODS = {
  append(x) { this.push(x); return null; },
  extend(items) { for (const x of toList(items)) this.push(x); return null; },
  insert(i, x) { this.splice(i, 0, x); return null; },
  pop(i) {
    if (this.length === 0) throw new Error('pop from empty list');
    if (i === undefined) return this.pop();
    if (i < 0) i += this.length;
    if (i < 0 || i >= this.length) throw new Error('pop index out of range');
    return this.splice(i, 1)[0];
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
  count(x) { return this.filter((y) => y === x).length; },
};
const DICT_METHODS = {
  items() { return Object.keys(this).map((k) => [k, this[k]]); },
  keys() { return Object.keys(this); },
  values() { return Object.keys(this).map((k) => this[k]); },
  get(key, dflt) {
    key = toKey(key);
    if (hasOwn(this, key)) return this[key];
    return dflt === undefined ? null : dflt;
  },
  update(other) {
    if (other !== null && typeof other === 'object') {
      for (const k of Object.keys(other)) if (!isBlockedName(k)) this[k] = other[k];
    }
    return null;
  },
  pop(key, dflt) {
    key = toKey(key);
    if (hasOwn(this, key)) { const v = this[key]; delete this[key]; return v; }
    if (dflt !== undefined) return dflt;
    throw new Error('KeyError: ' + key);
  },
  setdefault(key, dflt) {
    key = toKey(key);
    if (!hasOwn(this, key)) this[key] = dflt === undefined ? null : dflt;
    return this[key];
  },
};

nunjucks.installJinjaCompat(); // slices (a[1:], a[::-1]) and True/False/None; lookups replaced below
const compatMemberLookup = runtime.memberLookup;

function memberLookup(obj, val) {
  if (arguments.length === 4) {
    // Jinja slice obj[start:stop:step]; the compat helper reads elements back through us.
    const items = compatMemberLookup.apply(this, arguments);
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
    return function boundMember() { return value.apply(obj, arguments); };
  }
  return value;
}
runtime.memberLookup = memberLookup;

runtime.contextOrFrameLookup = function contextOrFrameLookup(context, frame, name) {
  const fromFrame = frame.lookup(name);
  if (fromFrame !== undefined) return fromFrame;
  // Own properties only: no Object.prototype members such as "constructor" or "toString".
  if (hasOwn(context.ctx, name)) return context.ctx[name];
  if (hasOwn(context.env.globals, name)) return context.env.globals[name];
  switch (name) {
    case 'True': return true;
    case 'False': return false;
    case 'None': return null;
    default: return undefined;
  }
};

// Jinja prints None/True/False, not ''/true/false.
const origSuppressValue = runtime.suppressValue;
runtime.suppressValue = function suppressValue(val, autoescape) {
  if (val === null) val = 'None';
  else if (val === true) val = 'True';
  else if (val === false) val = 'False';
  return origSuppressValue(val, autoescape);
};

// ---------------------------------------------------------------------------------------------
// Incremental output cap
// ---------------------------------------------------------------------------------------------
let outputTooLarge = false;
runtime.checkOutputSize = function checkOutputSize(buffer) {
  // UTF-16 length <= UTF-8 byte length, so this never fires early; the exact byte check is at the end.
  if (buffer.length > maxOutputBytes) {
    outputTooLarge = true;
    throw new Error('rendered output exceeds ' + maxOutputBytes + ' bytes');
  }
};
const Compiler = nunjucks.compiler.Compiler;
const origCompileOutput = Compiler.prototype.compileOutput;
Compiler.prototype.compileOutput = function compileOutput(node, frame) {
  origCompileOutput.call(this, node, frame);
  this._emitLine('runtime.checkOutputSize(' + this.buffer + ');');
};

// ---------------------------------------------------------------------------------------------
// Environment, filters, tests, globals
// ---------------------------------------------------------------------------------------------
const env = new nunjucks.Environment([], {
  autoescape: false,
  throwOnUndefined: false,
  trimBlocks: !!workerData.trimBlocks,
  lstripBlocks: !!workerData.lstripBlocks,
  dev: true, // keep TemplateError objects (line/column, cause) instead of flattened Errors
});

function toList(value) {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isString(value)) return Array.from(String(value));
  if (typeof value === 'object' && typeof value[Symbol.iterator] === 'function') return Array.from(value);
  if (typeof value === 'object') return Object.keys(value);
  throw new Error('value is not iterable');
}
function attrGetter(attribute) {
  const parts = String(attribute).split('.').map((p) => (/^[0-9]+$/.test(p) ? Number(p) : p));
  parts.forEach(toKey);
  return (item) => parts.reduce((obj, part) => memberLookup(obj, part), item);
}
function kwargsOf(args) {
  const last = args[args.length - 1];
  if (last && hasOwn(last, '__keywords')) { args.pop(); return last; }
  return {};
}
function compare(a, b, caseSensitive) {
  if (!caseSensitive && typeof a === 'string' && typeof b === 'string') {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
function minMax(sign) {
  return runtime.makeMacro(['value', 'case_sensitive', 'attribute'], [], function (value, caseSensitive, attribute) {
    const items = toList(value);
    if (items.length === 0) return undefined;
    const get = attribute === undefined || attribute === null ? (x) => x : attrGetter(attribute);
    return items.reduce((best, x) => (sign * compare(get(x), get(best), !!caseSensitive) > 0 ? x : best));
  });
}
function selectOrRejectAttr(expected) {
  return function (value, attribute, testName) {
    const testArgs = Array.prototype.slice.call(arguments, 3);
    const get = attrGetter(attribute);
    const context = this;
    if (testName === undefined) return toList(value).filter((x) => !!get(x) === expected);
    const test = env.getTest(testName);
    return toList(value).filter((x) => !!test.apply(context, [get(x)].concat(testArgs)) === expected);
  };
}

function pyJson(value, indent) {
  const pad = indent === undefined || indent === null ? null : typeof indent === 'number' ? ' '.repeat(indent) : String(indent);
  const seen = new Set();
  const quote = (s) => JSON.stringify(String(s)).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  const ser = (v, depth) => {
    if (v === null || v === undefined) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    if (typeof v === 'bigint') return String(v);
    if (isString(v)) return quote(v);
    if (v instanceof Date) return quote(v.toISOString());
    if (typeof v !== 'object') throw new Error('tojson: object of type ' + typeof v + ' is not JSON serializable');
    if (seen.has(v)) throw new Error('tojson: circular reference detected');
    seen.add(v);
    let entries;
    let open;
    let close;
    if (Array.isArray(v) || v instanceof Set) {
      entries = Array.from(v).map((x) => ser(x, depth + 1));
      open = '[';
      close = ']';
    } else {
      const map = v instanceof Map ? v : new Map(Object.keys(v).map((k) => [k, v[k]]));
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

env.addFilter('tojson', runtime.makeMacro(['value', 'indent'], [], (value, indent) => runtime.markSafe(pyJson(value, indent))));
env.addFilter('map', function (value) {
  const args = Array.prototype.slice.call(arguments, 1);
  const kwargs = kwargsOf(args);
  const items = toList(value);
  if (kwargs.attribute !== undefined) {
    const get = attrGetter(kwargs.attribute);
    return items.map((x) => { const v = get(x); return v === undefined ? kwargs.default : v; });
  }
  if (args.length === 0) throw new Error('map: a filter name or attribute= is required');
  const filter = env.getFilter(String(args[0]));
  const context = this;
  return items.map((x) => filter.apply(context, [x].concat(args.slice(1))));
});
env.addFilter('selectattr', selectOrRejectAttr(true));
env.addFilter('rejectattr', selectOrRejectAttr(false));
env.addFilter('attr', (obj, name) => memberLookup(obj, name));
env.addFilter('items', (value) => {
  if (value === undefined || value === null) return [];
  if (value instanceof Map) return Array.from(value.entries());
  return Object.keys(value).map((k) => [k, value[k]]);
});
env.addFilter('list', (value) => toList(value).slice());
env.addFilter('count', (value) => (value === undefined || value === null ? 0 : toList(value).length));
env.addFilter('min', minMax(-1));
env.addFilter('max', minMax(1));
env.addFilter('unique', runtime.makeMacro(['value', 'case_sensitive', 'attribute'], [], (value, caseSensitive, attribute) => {
  const get = attribute === undefined || attribute === null ? (x) => x : attrGetter(attribute);
  const seenKeys = new Set();
  return toList(value).filter((x) => {
    let k = get(x);
    if (!caseSensitive && typeof k === 'string') k = k.toLowerCase();
    if (seenKeys.has(k)) return false;
    seenKeys.add(k);
    return true;
  });
}));
env.addFilter('join', runtime.makeMacro(['value', 'd', 'attribute'], [], (value, d, attribute) => {
  const get = attribute === undefined || attribute === null ? (x) => x : attrGetter(attribute);
  return toList(value).map((x) => { const v = get(x); return v === undefined || v === null ? '' : String(v); }).join(d === undefined || d === null ? '' : String(d));
}));
env.addFilter('sum', runtime.makeMacro(['iterable', 'attribute', 'start'], [], (iterable, attribute, start) => {
  const get = attribute === undefined || attribute === null ? (x) => x : attrGetter(attribute);
  return toList(iterable).reduce((acc, x) => acc + get(x), start === undefined || start === null ? 0 : start);
}));
env.addFilter('groupby', runtime.makeMacro(['value', 'attribute', 'default', 'case_sensitive'], [], (value, attribute, dflt, caseSensitive) => {
  const get = attrGetter(attribute);
  const keyOf = (x) => { const k = get(x); return k === undefined ? dflt : k; };
  const norm = (k) => (!caseSensitive && typeof k === 'string' ? k.toLowerCase() : k);
  const sorted = toList(value).slice().sort((a, b) => compare(norm(keyOf(a)), norm(keyOf(b)), true));
  const groups = [];
  for (const x of sorted) {
    const k = keyOf(x);
    const last = groups[groups.length - 1];
    if (last && norm(last.grouper) === norm(k)) last.list.push(x);
    else {
      // Works both as group.grouper / group.list and as "for grouper, list in ...".
      const g = [k, [x]];
      g.grouper = k;
      g.list = g[1];
      groups.push(g);
    }
  }
  return groups;
}));
env.addFilter('indent', runtime.makeMacro(['s', 'width', 'first', 'blank'], [], (s, width, first, blank) => {
  const ind = typeof width === 'string' ? width : ' '.repeat(width === undefined || width === null ? 4 : Number(width));
  const lines = (String(s === undefined || s === null ? '' : s) + '\n').split(/\r\n|\r|\n/);
  lines.pop();
  let out;
  if (blank) out = lines.join('\n' + ind);
  else out = lines[0] + lines.slice(1).map((l) => '\n' + (l ? ind + l : l)).join('');
  return first ? ind + out : out;
}));
env.addFilter('truncate', runtime.makeMacro(['s', 'length', 'killwords', 'end', 'leeway'], [], (s, length, killwords, end, leeway) => {
  s = String(s === undefined || s === null ? '' : s);
  length = length === undefined || length === null ? 255 : Number(length);
  end = end === undefined || end === null ? '...' : String(end);
  leeway = leeway === undefined || leeway === null ? 5 : Number(leeway);
  if (s.length <= length + leeway) return s;
  const head = s.slice(0, Math.max(0, length - end.length));
  if (killwords) return head + end;
  const cut = head.lastIndexOf(' ');
  return (cut === -1 ? head : head.slice(0, cut)) + end;
}));

env.addTest('none', (v) => v === null);
env.addTest('boolean', (v) => typeof v === 'boolean');
env.addTest('true', (v) => v === true);
env.addTest('false', (v) => v === false);
env.addTest('integer', (v) => typeof v === 'number' && Number.isInteger(v));
env.addTest('float', (v) => typeof v === 'number' && !Number.isInteger(v));
env.addTest('sequence', (v) => Array.isArray(v) || isString(v));
env.addTest('in', (v, container) => lib.inOperator(v, container));

env.addGlobal('range', function range(start, stop, step) {
  if (stop === undefined) { stop = start; start = 0; }
  if (step === undefined) step = 1;
  if (![start, stop, step].every((n) => typeof n === 'number' && Number.isFinite(n))) throw new Error('range() arguments must be numbers');
  if (step === 0) throw new Error('range() step must not be zero');
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > MAX_RANGE) throw new Error('range() too big: ' + count + ' items, the limit is ' + MAX_RANGE);
  const out = new Array(count);
  for (let i = 0; i < count; i++) out[i] = start + i * step;
  return out;
});
env.addGlobal('dict', function dict() {
  const out = {};
  for (const arg of Array.prototype.slice.call(arguments)) {
    if (arg !== null && typeof arg === 'object') for (const k of Object.keys(arg)) if (!isBlockedName(k)) out[k] = arg[k];
  }
  return out;
});

// Filters given as source (a plugin's): each an expression evaluating to {name: {args, fn}},
// evaluated before the realm is hardened (the Function constructor goes).
for (const source of workerData.filterSources || []) {
  const filters = Function('"use strict"; return (' + source + ');')();
  for (const name of Object.keys(filters)) env.addFilter(name, runtime.makeMacro(filters[name].args, [], filters[name].fn));
}

// ---------------------------------------------------------------------------------------------
// Harden this worker's realm (it renders exactly one template and is then discarded)
// ---------------------------------------------------------------------------------------------
for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
  Object.defineProperty(Object.getPrototypeOf(fn), 'constructor', { value: undefined, writable: false, configurable: false });
}
for (const name of ['process', 'require', 'module', 'exports', '__filename', '__dirname', 'Buffer', 'global']) {
  try { delete globalThis[name]; } catch (e) { /* not configurable: leave it */ }
}

// ---------------------------------------------------------------------------------------------
// Parse, check, compile, render
// ---------------------------------------------------------------------------------------------
const UNSUPPORTED_NODES = [
  [nodes.Include, '{% include %}'],
  [nodes.Import, '{% import %}'],
  [nodes.FromImport, '{% from ... import %}'],
  [nodes.Extends, '{% extends %}'],
  [nodes.AsyncEach, '{% asyncEach %}'],
  [nodes.AsyncAll, '{% asyncAll %}'],
  [nodes.IfAsync, '{% ifAsync %}'],
  [nodes.CallExtension, 'extension tags'],
];
const pos = (node) => [typeof node.lineno === 'number' ? node.lineno + 1 : undefined, typeof node.colno === 'number' ? node.colno + 1 : undefined];
function syntaxFailure(message, node) {
  const [line, column] = node ? pos(node) : [undefined, undefined];
  return new Failure('syntax', message, line, column);
}

function checkTree(root) {
  for (const [type, label] of UNSUPPORTED_NODES) {
    const found = root.findAll(type);
    if (found.length > 0) {
      const extra = label.startsWith('{% include') || label.startsWith('{% import') || label.startsWith('{% from') || label.startsWith('{% extends')
        ? ' (config templates cannot load other templates)'
        : '';
      throw syntaxFailure(label + ' is not supported' + extra, found[0]);
    }
  }
  for (const node of root.findAll(nodes.For)) {
    if (node.arr instanceof nodes.InlineIf && !node.arr.else_) {
      throw syntaxFailure('loop filtering ("{% for x in items if condition %}") is not supported; use selectattr/select or an {% if %} inside the loop', node);
    }
  }
  for (const node of root.findAll(nodes.Set)) {
    for (const target of node.targets) {
      if (!(target instanceof nodes.Symbol)) throw syntaxFailure('{% set %} can only assign plain variable names (no "{% set a.b = ... %}")', node);
    }
  }
  for (const node of root.findAll(nodes.Filter)) {
    const name = node.name && node.name.value;
    if (typeof name === 'string' && !hasOwn(env.filters, name)) throw syntaxFailure('unknown filter "' + name + '"', node.name);
  }
}

function innermost(err) {
  // nunjucks may wrap a render error several times (TemplateError -> TemplateError -> original
  // Error); the deepest TemplateError has the most precise position. Render positions are 0-based.
  let line;
  let column;
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

function run() {
  let source = String(workerData.templateCode).replace(/\r\n?/g, '\n');
  if (!workerData.keepTrailingNewline && source.endsWith('\n')) source = source.slice(0, -1);

  let root;
  try {
    root = nunjucks.parser.parse(source, env.extensionsList, env.opts);
  } catch (err) {
    throw new Failure('syntax', String(err && err.message), err && err.lineno, err && err.colno);
  }
  checkTree(root);

  let template;
  try {
    template = new nunjucks.Template(source, env, 'config-template', true);
  } catch (err) {
    const info = innermost(err);
    throw new Failure('syntax', info.message, err && err.lineno, err && err.colno);
  }

  let output;
  try {
    output = template.render(Object.assign({}, workerData.context));
  } catch (err) {
    if (outputTooLarge) throw new Failure('output_too_large', 'Rendered output exceeds ' + maxOutputBytes + ' bytes');
    const info = innermost(err);
    if (info.root instanceof RangeError && /Invalid string length|Invalid array length/.test(info.root.message)) {
      throw new Failure('output_too_large', 'Rendered output exceeds ' + maxOutputBytes + ' bytes (' + info.root.message + ')');
    }
    throw new Failure('render', info.message, info.line, info.column);
  }
  if (output.length > maxOutputBytes || byteLength(output, 'utf8') > maxOutputBytes) {
    throw new Failure('output_too_large', 'Rendered output exceeds ' + maxOutputBytes + ' bytes');
  }
  return output;
}

parentPort.postMessage({ type: 'started' });
let result;
try {
  result = { type: 'done', output: run() };
} catch (err) {
  if (err instanceof Failure) {
    result = { type: 'failed', kind: err.kind, message: err.message, line: err.line, column: err.column };
  } else {
    result = { type: 'failed', kind: 'render', message: String(err && err.message ? err.message : err) };
  }
}
parentPort.postMessage(result);
`;
