/**
 * Sandboxed, bounded renderer for NetBox-style config templates (Jinja2 syntax), built on nunjucks.
 * Framework-free: no Nest imports, usable from services, CLIs and tests alike.
 *
 * nunjucks compiles a template into JavaScript and runs it; its own documentation says it is no
 * security boundary. Three layers keep a hostile template from running code of its own, and a
 * fourth contains it if one fails:
 *   1. syntax (template-syntax.ts): every name in the parsed tree must be a plain identifier, so
 *      nothing from the template reaches the generated code unescaped. Checked at save (each
 *      model field holding a template), here before each render (rows saved before the check) and
 *      in the render process on the very tree it compiles. Failures are ConfigTemplateErrors of
 *      kind `syntax` with a line and column.
 *   2. guard (jinja-environment.ts): names resolve only to template variables, the context's own
 *      properties and our globals; every attribute lookup refuses `constructor`, `prototype`,
 *      `caller`, `callee`, `arguments` and `__*`.
 *   3. realm (render-process.ts): the template runs after the Function constructors, `process`,
 *      `require`, `fetch`, WebAssembly and the messaging globals are gone, with code generation
 *      from strings off and no dynamic import() hook.
 *   4. process: each render is a separate OS process (never a thread of the server), started with an
 *      empty environment, cwd `/`, a capped heap (`memoryLimitMb`), and on Node's permission model
 *      reading only nunjucks, the renderer's own directory and the filter modules: no DATA_DIR,
 *      keys, child processes, workers or addons. Only the context goes in (stdin), only text comes
 *      out (stdout, bounded, every message checked, see render-protocol.ts); anything else, and any
 *      exit before an answer, is a `render` failure, never an exception in the server.
 *
 * Limits: the process is killed `timeoutMs` (default 2000) after it reports ready (start-up has its
 * own budget); output is checked as it grows and the render fails past `maxOutputBytes` (default
 * 1 MiB, UTF-8 bytes). At most `concurrency` processes run at once; further renders wait in a queue
 * of `queueSize`, and one requester (a user, a token, the webhook worker) may have at most
 * `perRequester` renders running or waiting, and when others wait, run at most all but one of the
 * slots. A full queue or bound answers TooManyRequestsError (429) at once. Settings:
 * TEMPLATE_RENDER_* (docs/configuration.md).
 *
 * Jinja2 compatibility (nunjucks 3.2.4 + additions made in jinja-environment.ts):
 *   Supported: {{ }}, {% if/elif/else %}, {% for %} (with {% else %}, loop.index/index0/revindex/
 *   first/last/length, tuple unpacking), {% macro %} with defaults and keyword arguments,
 *   {% call %}/caller(), {% set %} and block {% set %}, {% filter %}, {% raw %}, comments,
 *   whitespace control with "-", trim_blocks / lstrip_blocks / keep_trailing_newline (options),
 *   slices (a[1:], a[::-1]), negative indexes, True/False/None, inline if, "in", "is" tests,
 *   "~" concatenation, "//" and "**". Output of None/True/False prints "None"/"True"/"False" as in
 *   Jinja.
 *   Added filters: tojson (Jinja-compatible: sorted keys, HTML-safe escapes, indent), map
 *   (attribute= or filter name), Jinja-style selectattr/rejectattr (with tests), attr, items, list,
 *   count, min, max, unique, join(attribute=), sum(attribute=), groupby (grouper/list), indent
 *   (first=/blank= semantics of Jinja 3). Added tests: none, boolean, true, false, integer, float,
 *   sequence, in. Added globals: dict(); range() is capped at 100000 items like Jinja's sandbox.
 *   Added methods: str.upper/lower/strip/lstrip/rstrip/startswith/endswith/split/replace/join/
 *   find/count/isdigit, list.append/extend/insert/pop/remove/index/count,
 *   dict.items/keys/values/get/update/pop/setdefault (a data key of the same name wins, because
 *   nunjucks cannot tell `d.items` from `d['items']`).
 *   NOT supported: names outside [A-Za-z_][A-Za-z0-9_]* (Jinja's ASCII identifiers), regular
 *   expression literals, {% include %}, {% import %}, {% from %}, {% extends %}/blocks inheritance
 *   (rejected: no loader); {% with %}, {% do %}, {% break %}/{% continue %}, loop filtering
 *   ("{% for x in xs if cond %}", rejected), recursive loops, loop.cycle/depth/previtem/nextitem/
 *   changed, namespace() and attribute assignment ("{% set ns.x = 1 %}", rejected; note that a
 *   nunjucks {% set %} inside a loop updates an existing outer variable, unlike Jinja, so the
 *   namespace() idiom is rarely needed), the "+" whitespace modifier ({%+ %}), Python "%" string
 *   formatting, the format/wordwrap/xmlattr/filesizeformat/pprint filters and str.format(),
 *   Python repr when printing lists/dicts (use |join or |tojson), int/float distinction (1.0
 *   prints "1"), "'a' ~ none" gives "anull", and attribute access on an undefined value renders
 *   empty instead of raising UndefinedError. Unknown filters are reported as syntax errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, extname, join, relative, sep } from 'node:path';
import { serialize } from 'node:v8';
import { TooManyRequestsError } from '../../../common/errors/common-errors';
import { ConfigTemplateError, type ConfigTemplateErrorKind } from './config-template-error';
import { parseRenderReply, type RenderReply, type RenderRequest } from './render-protocol';
import { checkTemplateSource, templateProblem, type NunjucksParsing } from './template-syntax';

export { ConfigTemplateError, type ConfigTemplateErrorKind } from './config-template-error';

export interface ConfigTemplateLimits {
  /** Wall-clock budget for parsing + rendering, in milliseconds. Default 2000. */
  timeoutMs?: number;
  /** Maximum size of the rendered text in UTF-8 bytes. Default 1 MiB. */
  maxOutputBytes?: number;
  /** V8 old-generation heap cap of the render process, in MB. Default max(128, 64 + 4 × output MiB). */
  memoryLimitMb?: number;
}

/** Jinja environment parameters (NetBox's `environment_params`), Jinja defaults when omitted. */
export interface ConfigTemplateOptions {
  trimBlocks?: boolean;
  lstripBlocks?: boolean;
  /** Jinja strips a single trailing newline from the template unless this is true. */
  keepTrailingNewline?: boolean;
  /**
   * Filters beyond Jinja's (a plugin's, e.g. peering's `to_prefix_set`): paths of modules exporting
   * `TEMPLATE_FILTERS` (`{<name>: {args: [<parameter names>], fn}}`, see jinja-environment.ts),
   * loaded in the render process, so the functions see only the values the template passes them.
   * A module's own `__filename` is the usual value (a `.ts` path maps to its compiled `dist/` file).
   */
  filterModules?: readonly string[];
  /**
   * Who the render is for (`user:5`, `service_account:2`, `system:webhooks`): the per-requester
   * bound of the render queue applies to each. Without it only the process-wide bounds apply.
   */
  requester?: string;
}

export const CONFIG_TEMPLATE_DEFAULT_TIMEOUT_MS = 2000;
export const CONFIG_TEMPLATE_DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Largest range() a template may build, as in Jinja's SandboxedEnvironment (MAX_RANGE). */
export const CONFIG_TEMPLATE_MAX_RANGE = 100_000;
/** Default of renders running at the same time (TEMPLATE_RENDER_CONCURRENCY); each process may use memoryLimitMb. */
export const MAX_CONCURRENT_RENDERS = Math.max(2, Math.min(8, availableParallelism()));
/** Default of renders waiting for a slot, all requesters together (TEMPLATE_RENDER_QUEUE_SIZE). */
export const DEFAULT_RENDER_QUEUE_SIZE = 32;
/** Default of renders one requester may have running or waiting (TEMPLATE_RENDER_PER_REQUESTER). */
export const DEFAULT_RENDERS_PER_REQUESTER = 4;
/** Budget for the process to boot and load nunjucks, separate from the render timeout. */
const STARTUP_TIMEOUT_MS = 10_000;
/** Seconds a client told to wait (429) should wait before trying again. */
const RETRY_AFTER_SECONDS = 2;

export interface TemplateRenderingSettings {
  concurrency: number;
  queueSize: number;
  perRequester: number;
  /**
   * The module the render processes run (its directory is readable to them). Tests give a
   * misbehaving one; the default is the compiled render-process module beside this one.
   */
  renderProcessEntry?: string;
}

const NUNJUCKS_DIR = dirname(realpathSync(require.resolve('nunjucks/package.json')));

let settings: Required<Omit<TemplateRenderingSettings, 'renderProcessEntry'>> & { renderProcessEntry?: string } = {
  concurrency: MAX_CONCURRENT_RENDERS,
  queueSize: DEFAULT_RENDER_QUEUE_SIZE,
  perRequester: DEFAULT_RENDERS_PER_REQUESTER,
};

/** Sets the bounds of the render queue (from AppConfig at boot; tests change them). */
export function configureTemplateRendering(changes: Partial<TemplateRenderingSettings>): void {
  for (const key of ['concurrency', 'queueSize', 'perRequester'] as const) {
    if (changes[key] !== undefined) settings = { ...settings, [key]: Math.floor(positive(changes[key], key)) };
  }
  if ('renderProcessEntry' in changes) settings = { ...settings, renderProcessEntry: changes.renderProcessEntry };
}

// --- syntax check in the server --------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-require-imports -- nunjucks ships no types: NunjucksParsing states the part used here
const nunjucksForParsing = require('nunjucks') as NunjucksParsing;

/** Checks a template's syntax and names without running any of it; throws a `syntax` ConfigTemplateError. */
export function checkConfigTemplate(templateCode: string, options: Pick<ConfigTemplateOptions, 'trimBlocks' | 'lstripBlocks'> = {}): void {
  checkTemplateSource(nunjucksForParsing, templateCode.replace(/\r\n?/g, '\n'), options);
}

/**
 * A model field's template problems for a 400 (`["line N: …"]`, empty when fine): the check run at
 * save on every field that holds a template.
 */
export function configTemplateProblems(value: unknown): string[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  try {
    checkConfigTemplate(value);
    return [];
  } catch (error) {
    if (error instanceof ConfigTemplateError) return [templateProblem(error, value.replace(/\r\n?/g, '\n'))];
    throw error;
  }
}

/** `{field: ["line N: …"]}` for each of the given template fields of a written object that fails the check. */
export function templateFieldProblems(values: Record<string, unknown>, fields: readonly string[]): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const field of fields) {
    const found = configTemplateProblems(values[field]);
    if (found.length > 0) problems[field] = found;
  }
  return problems;
}

// --- rendering -------------------------------------------------------------------------------------

export async function renderConfigTemplate(
  templateCode: string,
  context: Record<string, unknown>,
  limits: ConfigTemplateLimits = {},
  options: ConfigTemplateOptions = {},
): Promise<string> {
  if (typeof templateCode !== 'string') throw new TypeError('templateCode must be a string');
  const timeoutMs = positive(limits.timeoutMs ?? CONFIG_TEMPLATE_DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const maxOutputBytes = positive(limits.maxOutputBytes ?? CONFIG_TEMPLATE_DEFAULT_MAX_OUTPUT_BYTES, 'maxOutputBytes');
  const memoryLimitMb = positive(
    limits.memoryLimitMb ?? Math.max(128, 64 + Math.ceil((4 * maxOutputBytes) / (1024 * 1024))),
    'memoryLimitMb',
  );
  let input: Buffer;
  try {
    input = serialize({
      nunjucksDir: NUNJUCKS_DIR,
      filterModules: (options.filterModules ?? []).map(compiledModulePath),
      templateCode,
      context: context ?? {},
      maxOutputBytes,
      maxRange: CONFIG_TEMPLATE_MAX_RANGE,
      trimBlocks: options.trimBlocks === true,
      lstripBlocks: options.lstripBlocks === true,
      keepTrailingNewline: options.keepTrailingNewline === true,
    } satisfies RenderRequest);
  } catch (err) {
    // Typically a DataCloneError: the context holds functions or other non-cloneable values.
    const reason = err instanceof Error ? err.message : String(err);
    throw new TypeError(`Template context must be structured-cloneable plain data: ${reason}`, { cause: err });
  }
  // Stored rows may predate the check: nothing unchecked leaves the server.
  try {
    checkConfigTemplate(templateCode, options);
  } catch (error) {
    if (!(error instanceof ConfigTemplateError)) throw error;
    const { message, line, column } = error;
    throw new ConfigTemplateError('syntax', formatFailure({ type: 'failed', kind: 'syntax', message, line, column }), line, column);
  }

  const release = await acquireSlot(options.requester);
  try {
    return await runRenderProcess(input, { timeoutMs, maxOutputBytes, memoryLimitMb }, options.filterModules ?? []);
  } finally {
    release();
  }
}

function positive(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}

/** A module's compiled file: itself, or for a `.ts` source (tests run from source) its file under `dist/`. */
function compiledModulePath(file: string): string {
  if (extname(file) !== '.ts') return file;
  let root = dirname(file);
  while (!existsSync(join(root, 'package.json'))) {
    const parent = dirname(root);
    if (parent === root) throw new Error(`no package.json above ${file}`);
    root = parent;
  }
  const compiled = join(root, 'dist', relative(root, file)).replace(/\.ts$/, '.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: render processes run compiled code (npx nest build)`);
  return compiled;
}

/** Node's permission model flag (`--permission` from Node 22.13/23.5, `--experimental-permission` before), if it has one. */
const PERMISSION_FLAG = ['--permission', '--experimental-permission'].find((flag) => process.allowedNodeEnvironmentFlags.has(flag));

/** Packages nunjucks requires, readable to the render process beside nunjucks itself. */
function nunjucksDependencyDirs(): string[] {
  const { dependencies = {} } = require(join(NUNJUCKS_DIR, 'package.json')) as { dependencies?: Record<string, string> }; // eslint-disable-line @typescript-eslint/no-require-imports -- a package.json read once
  return Object.keys(dependencies).flatMap((name) => {
    try {
      return [dirname(realpathSync(require.resolve(`${name}/package.json`, { paths: [NUNJUCKS_DIR] })))];
    } catch {
      return []; // optional or bin-only dependency not installed
    }
  });
}
let readableDependencyDirs: string[] | undefined;

function processArguments(entry: string, memoryLimitMb: number, filterModules: readonly string[]): string[] {
  const args = [
    `--max-old-space-size=${Math.ceil(memoryLimitMb)}`,
    '--disallow-code-generation-from-strings',
    '--disable-proto=delete',
    '--no-warnings',
  ];
  if (PERMISSION_FLAG) {
    readableDependencyDirs ??= nunjucksDependencyDirs();
    const dirs = [NUNJUCKS_DIR, ...readableDependencyDirs, dirname(entry)];
    const files = filterModules.map((file) => realpathSync(file));
    // The module loader looks for package.json files above each module (its "type").
    const packageFiles = new Set([...dirs, ...files.map(dirname)].flatMap((dir) => ancestors(dir).map((up) => join(up, 'package.json'))));
    const readable = [...dirs.map((dir) => `${dir}${sep}*`), ...files, ...packageFiles];
    args.push(PERMISSION_FLAG, ...readable.map((path) => `--allow-fs-read=${path}`));
  }
  return [...args, entry];
}

/** A directory and every directory above it. */
function ancestors(dir: string): string[] {
  const parent = dirname(dir);
  return parent === dir ? [dir] : [dir, ...ancestors(parent)];
}

function renderProcessEntry(): string {
  return realpathSync(settings.renderProcessEntry ?? compiledModulePath(join(__dirname, `render-process${extname(__filename)}`)));
}

function runRenderProcess(input: Buffer, limits: Required<ConfigTemplateLimits>, filterModules: readonly string[]): Promise<string> {
  const entry = renderProcessEntry();
  const child = spawn(process.execPath, processArguments(entry, limits.memoryLimitMb, filterModules.map(compiledModulePath)), {
    env: {},
    cwd: '/',
    stdio: ['pipe', 'pipe', 'ignore'],
    windowsHide: true,
  });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    let started = false;
    let timer: NodeJS.Timeout | undefined;
    let received = 0;
    let pending = '';
    // JSON escaping makes the answer at most 6 bytes per output byte, plus the envelope.
    const maxReceived = limits.maxOutputBytes * 6 + 64 * 1024;

    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      stop(child);
    };
    const fail = (kind: ConfigTemplateErrorKind, message: string, line?: number, column?: number): void =>
      settle(() => reject(new ConfigTemplateError(kind, message, line, column)));
    const invalid = (what: string) => fail('render', `Template renderer failed: ${what}`);

    timer = setTimeout(() => fail('timeout', `Template renderer did not start within ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);

    const handle = (reply: RenderReply): void => {
      if (reply.type === 'started') {
        if (started) return invalid('it reported ready twice');
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => fail('timeout', `Template rendering exceeded ${limits.timeoutMs} ms and was stopped`), limits.timeoutMs);
      } else if (!started) {
        invalid('it answered before reporting ready');
      } else if (reply.type === 'done') {
        if (Buffer.byteLength(reply.output, 'utf8') > limits.maxOutputBytes) {
          fail('output_too_large', `Rendered output exceeds ${limits.maxOutputBytes} bytes`);
        } else settle(() => resolve(reply.output));
      } else {
        fail(reply.kind, formatFailure(reply), reply.line, reply.column);
      }
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > maxReceived) return fail('output_too_large', `Rendered output exceeds ${limits.maxOutputBytes} bytes`);
      pending += chunk.toString('utf8');
      let newline: number;
      while (!settled && (newline = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        const reply = parseRenderReply(line);
        if (reply === null) return invalid('it sent a malformed message');
        handle(reply);
      }
    });
    child.on('error', (err) => fail('render', `Template renderer failed: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (settled) return;
      // V8 aborts a process that runs out of heap.
      if (signal === 'SIGABRT' || code === 134) {
        fail('output_too_large', `Template rendering exceeded the memory limit of ${limits.memoryLimitMb} MB and was stopped`);
      } else {
        fail('render', `Template renderer exited unexpectedly (${signal ? `signal ${signal}` : `exit code ${String(code)}`})`);
      }
    });
    child.stdin?.on('error', () => undefined); // a process that exits early closes the pipe: its exit is the answer
    child.stdin?.end(input);
  });
}

/** Kills a render process that is still running (after an answer it exits by itself). */
function stop(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function formatFailure(failure: Extract<RenderReply, { type: 'failed' }>): string {
  if (failure.kind === 'output_too_large') return failure.message;
  const what = failure.kind === 'syntax' ? 'Template syntax error' : 'Template render error';
  const where =
    failure.line === undefined
      ? ''
      : failure.column === undefined
        ? ` at line ${failure.line}`
        : ` at line ${failure.line}, column ${failure.column}`;
  return `${what}${where}: ${failure.message}`;
}

// --- render queue ----------------------------------------------------------------------------------

interface Waiter {
  requester: string | undefined;
  start: () => void;
}

let running = 0;
const runningBy = new Map<string, number>();
const waitingBy = new Map<string, number>();
const waiting: Waiter[] = [];

const countOf = (counts: Map<string, number>, key: string | undefined): number => (key === undefined ? 0 : (counts.get(key) ?? 0));
function adjust(counts: Map<string, number>, key: string | undefined, delta: number): void {
  if (key === undefined) return;
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

/**
 * Whether a render may take a slot now. A requester never holds every slot (all but one at most),
 * so renders of others start at once however many of its own it keeps busy.
 */
function mayStart(requester: string | undefined): boolean {
  if (running >= settings.concurrency) return false;
  return requester === undefined || settings.concurrency < 2 || countOf(runningBy, requester) < settings.concurrency - 1;
}

function begin(requester: string | undefined): () => void {
  running++;
  adjust(runningBy, requester, 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    adjust(runningBy, requester, -1);
    startWaiting();
  };
}

function startWaiting(): void {
  // First come, first served among those allowed to start.
  for (let index = 0; index < waiting.length && running < settings.concurrency;) {
    const waiter = waiting[index];
    if (!mayStart(waiter.requester)) {
      index++;
      continue;
    }
    waiting.splice(index, 1);
    adjust(waitingBy, waiter.requester, -1);
    waiter.start();
  }
}

function acquireSlot(requester: string | undefined): Promise<() => void> {
  if (requester !== undefined && countOf(runningBy, requester) + countOf(waitingBy, requester) >= settings.perRequester) {
    return Promise.reject(
      new TooManyRequestsError(
        `Too many template renders in progress for you (at most ${settings.perRequester}); try again shortly.`,
        RETRY_AFTER_SECONDS,
        'render_queue_full',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = { requester, start: () => resolve(begin(requester)) };
    waiting.push(waiter);
    adjust(waitingBy, requester, 1);
    startWaiting();
    const index = waiting.indexOf(waiter);
    if (index !== -1 && waiting.length > settings.queueSize) {
      waiting.splice(index, 1);
      adjust(waitingBy, requester, -1);
      reject(new TooManyRequestsError('The template renderer is busy; try again shortly.', RETRY_AFTER_SECONDS, 'render_queue_full'));
    }
  });
}
