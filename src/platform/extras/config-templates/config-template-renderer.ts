/**
 * Sandboxed, bounded renderer for NetBox-style config templates (Jinja2 syntax), built on nunjucks.
 * Framework-free: no Nest imports, usable from services, CLIs and tests alike.
 *
 * Each render runs in its own `worker_threads` Worker (see ./config-template-worker.source.ts):
 *   - time: the worker is terminated `timeoutMs` (default 2000) after it starts rendering, so an
 *     endless loop or a runaway macro never blocks the server's event loop;
 *   - output: output buffers are checked as they grow and the render fails once they exceed
 *     `maxOutputBytes` (default 1 MiB, UTF-8 bytes); the worker's V8 heap is capped
 *     (`memoryLimitMb`, default 128) as a backstop, so the server process never has to hold more
 *     than the allowed output;
 *   - sandbox: no loader (no file system / network), autoescape off (configs are not HTML), no
 *     access to JavaScript globals, constructors or `__proto__`; see the worker source for layers;
 *   - concurrency: at most MAX_CONCURRENT_RENDERS workers run at once; further renders queue.
 *
 * Jinja2 compatibility (nunjucks 3.2.4 + additions made in the worker):
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
 *   NOT supported: {% include %}, {% import %}, {% from %}, {% extends %}/blocks inheritance
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
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CONFIG_TEMPLATE_WORKER_SOURCE } from './config-template-worker.source';

export type ConfigTemplateErrorKind = 'syntax' | 'render' | 'timeout' | 'output_too_large';

export class ConfigTemplateError extends Error {
  override readonly name = 'ConfigTemplateError';

  constructor(
    readonly kind: ConfigTemplateErrorKind,
    message: string,
    /** 1-based position in the template, when nunjucks reports one. */
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

export interface ConfigTemplateLimits {
  /** Wall-clock budget for parsing + rendering, in milliseconds. Default 2000. */
  timeoutMs?: number;
  /** Maximum size of the rendered text in UTF-8 bytes. Default 1 MiB. */
  maxOutputBytes?: number;
  /** V8 old-generation heap cap of the render worker, in MB. Default max(128, 64 + 4 × output MiB). */
  memoryLimitMb?: number;
}

/** Jinja environment parameters (NetBox's `environment_params`), Jinja defaults when omitted. */
export interface ConfigTemplateOptions {
  trimBlocks?: boolean;
  lstripBlocks?: boolean;
  /** Jinja strips a single trailing newline from the template unless this is true. */
  keepTrailingNewline?: boolean;
  /**
   * Filters beyond Jinja's (a plugin's, e.g. peering's `to_prefix_set`), as JavaScript source like
   * the worker's own: each an expression evaluating to `{<name>: {args: [<parameter names>], fn}}`,
   * evaluated in the render worker, so the functions see only the values the template passes them.
   */
  filterSources?: readonly string[];
}

export const CONFIG_TEMPLATE_DEFAULT_TIMEOUT_MS = 2000;
export const CONFIG_TEMPLATE_DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Largest range() a template may build, as in Jinja's SandboxedEnvironment (MAX_RANGE). */
export const CONFIG_TEMPLATE_MAX_RANGE = 100_000;
/** Renders running at the same time; more wait in a queue (each worker may use memoryLimitMb). */
export const MAX_CONCURRENT_RENDERS = Math.max(2, Math.min(8, availableParallelism()));
/** Budget for the worker to boot and load nunjucks, separate from the render timeout. */
const WORKER_STARTUP_TIMEOUT_MS = 10_000;

const NUNJUCKS_PATH = require.resolve('nunjucks');

type WorkerMessage =
  | { type: 'started' }
  | { type: 'done'; output: string }
  | { type: 'failed'; kind: Exclude<ConfigTemplateErrorKind, 'timeout'>; message: string; line?: number; column?: number };

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

  await acquireSlot();
  let exited: Promise<void> = Promise.resolve();
  try {
    const run = startWorker(templateCode, context ?? {}, { timeoutMs, maxOutputBytes, memoryLimitMb }, options);
    exited = run.exited;
    return await run.result;
  } finally {
    // Free the slot only once the thread is really gone, so the memory bound holds.
    void exited.then(releaseSlot);
  }
}

function positive(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}

function startWorker(
  templateCode: string,
  context: Record<string, unknown>,
  limits: Required<ConfigTemplateLimits>,
  options: ConfigTemplateOptions,
): { result: Promise<string>; exited: Promise<void> } {
  let worker: Worker;
  try {
    worker = new Worker(CONFIG_TEMPLATE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        nunjucksPath: NUNJUCKS_PATH,
        templateCode,
        context,
        maxOutputBytes: limits.maxOutputBytes,
        maxRange: CONFIG_TEMPLATE_MAX_RANGE,
        trimBlocks: options.trimBlocks === true,
        lstripBlocks: options.lstripBlocks === true,
        keepTrailingNewline: options.keepTrailingNewline === true,
        filterSources: [...(options.filterSources ?? [])],
      },
      env: {}, // the worker gets an empty process.env: no secrets to leak
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryLimitMb },
    });
  } catch (err) {
    // Typically a DataCloneError: the context holds functions or other non-cloneable values.
    const reason = err instanceof Error ? err.message : String(err);
    return {
      result: Promise.reject(new TypeError(`Template context must be structured-cloneable plain data: ${reason}`)),
      exited: Promise.resolve(),
    };
  }

  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const result = new Promise<string>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      worker.terminate().catch(() => undefined);
    };
    const fail = (error: ConfigTemplateError): void => settle(() => reject(error));

    timer = setTimeout(
      () => fail(new ConfigTemplateError('timeout', `Template renderer did not start within ${WORKER_STARTUP_TIMEOUT_MS} ms`)),
      WORKER_STARTUP_TIMEOUT_MS,
    );

    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'started':
          clearTimeout(timer);
          timer = setTimeout(
            () => fail(new ConfigTemplateError('timeout', `Template rendering exceeded ${limits.timeoutMs} ms and was stopped`)),
            limits.timeoutMs,
          );
          break;
        case 'done':
          if (Buffer.byteLength(message.output, 'utf8') > limits.maxOutputBytes) {
            fail(new ConfigTemplateError('output_too_large', `Rendered output exceeds ${limits.maxOutputBytes} bytes`));
          } else {
            settle(() => resolve(message.output));
          }
          break;
        case 'failed':
          fail(new ConfigTemplateError(message.kind, formatMessage(message), message.line, message.column));
          break;
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        fail(
          new ConfigTemplateError(
            'output_too_large',
            `Template rendering exceeded the memory limit of ${limits.memoryLimitMb} MB and was stopped`,
          ),
        );
      } else {
        fail(new ConfigTemplateError('render', `Template renderer failed: ${err.message}`));
      }
    });
    worker.on('exit', (code) => {
      fail(new ConfigTemplateError('render', `Template renderer exited unexpectedly (exit code ${code})`));
    });
  });
  return { result, exited };
}

function formatMessage(message: Extract<WorkerMessage, { type: 'failed' }>): string {
  if (message.kind === 'output_too_large') return message.message;
  const what = message.kind === 'syntax' ? 'Template syntax error' : 'Template render error';
  const where =
    message.line === undefined
      ? ''
      : message.column === undefined
        ? ` at line ${message.line}`
        : ` at line ${message.line}, column ${message.column}`;
  return `${what}${where}: ${message.message}`;
}

// --- concurrency limit ---------------------------------------------------------------------------

let activeRenders = 0;
const waitingRenders: Array<() => void> = [];

function acquireSlot(): Promise<void> {
  if (activeRenders < MAX_CONCURRENT_RENDERS) {
    activeRenders++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waitingRenders.push(resolve));
}

function releaseSlot(): void {
  const next = waitingRenders.shift();
  if (next)
    next(); // hand the slot over without decrementing
  else activeRenders--;
}
