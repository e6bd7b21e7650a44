/**
 * Entry of a config-template render process: one process renders one template and exits. The
 * server starts it (config-template-renderer.ts) with an empty environment, a capped heap, code
 * generation from strings off and, where Node has it, the permission model allowing reads of
 * nothing but nunjucks, this directory and the filter modules (no child processes, workers or
 * addons). Protocol: render-protocol.ts.
 *
 * Order: read the request, load nunjucks and the plugin filters, compile the checked template,
 * then strip this realm of everything a template has no use for (the Function constructors,
 * `process`, `require`, network and messaging globals, WebAssembly) and only then run it.
 */
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { createJinjaRenderer, type TemplateFilters } from './jinja-environment';
import type { RenderReply, RenderRequest } from './render-protocol';

/** Globals a template never needs and an escaped template could use against the host. */
const STRIPPED_GLOBALS = [
  'Function',
  'eval',
  'process',
  'require',
  'module',
  'exports',
  'global',
  'Buffer',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'WebSocket',
  'EventSource',
  'WebAssembly',
  'MessagePort',
  'MessageChannel',
  'MessageEvent',
  'BroadcastChannel',
  'Worker',
  'SharedArrayBuffer',
  'Atomics',
  'navigator',
];

/** Makes the Function constructors unreachable and removes the globals above; throws if any stays. */
function stripRealm(): void {
  const functionPrototypes = [function () {}, async function () {}, function* () {}, async function* () {}].map(
    (fn) => Object.getPrototypeOf(fn) as object,
  );
  for (const prototype of functionPrototypes) {
    Object.defineProperty(prototype, 'constructor', { value: undefined, writable: false, configurable: false });
  }
  const realm = globalThis as Record<string, unknown>;
  for (const name of STRIPPED_GLOBALS) {
    if (!(name in realm)) continue;
    if (!Reflect.deleteProperty(realm, name)) {
      Object.defineProperty(realm, name, { value: undefined, writable: false, configurable: false });
    }
  }
  const left = STRIPPED_GLOBALS.filter((name) => realm[name] !== undefined);
  if (left.length > 0 || functionPrototypes.some((prototype) => prototype.constructor !== undefined)) {
    throw new Error(`the render process could not remove ${left.join(', ') || 'the Function constructors'}`);
  }
}

function loadModule(path: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- modules given by path, resolved by the server
  return require(path);
}

function loadFilters(path: string): TemplateFilters {
  const { TEMPLATE_FILTERS } = loadModule(path) as { TEMPLATE_FILTERS?: TemplateFilters };
  if (TEMPLATE_FILTERS === null || typeof TEMPLATE_FILTERS !== 'object') throw new Error(`${path} exports no TEMPLATE_FILTERS`);
  return TEMPLATE_FILTERS;
}

function readStdin(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', () => resolve(Buffer.concat(chunks)));
    process.stdin.once('error', reject);
  });
}

function failure(error: unknown): RenderReply {
  const { kind, message, line, column } = error as { kind?: unknown; message?: unknown; line?: unknown; column?: unknown };
  const position = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined);
  return {
    type: 'failed',
    kind: kind === 'syntax' || kind === 'output_too_large' ? kind : 'render',
    message: String(message ?? error),
    ...(position(line) === undefined ? {} : { line: position(line) }),
    ...(position(column) === undefined ? {} : { column: position(column) }),
  };
}

async function main(): Promise<void> {
  const stdout = process.stdout;
  const send = (reply: RenderReply) => stdout.write(JSON.stringify(reply) + '\n');
  const request = deserialize(await readStdin()) as RenderRequest;
  let reply: RenderReply;
  try {
    const renderer = createJinjaRenderer(
      {
        nunjucks: loadModule(join(request.nunjucksDir, 'index.js')),
        transformer: loadModule(join(request.nunjucksDir, 'src', 'transformer.js')) as {
          transform(root: unknown, asyncFilters: unknown[], name: string): unknown;
        },
      },
      {
        maxOutputBytes: request.maxOutputBytes,
        maxRange: request.maxRange,
        trimBlocks: request.trimBlocks,
        lstripBlocks: request.lstripBlocks,
        keepTrailingNewline: request.keepTrailingNewline,
      },
      request.filterModules.map(loadFilters),
    );
    send({ type: 'started' });
    const template = renderer.compile(request.templateCode);
    stripRealm();
    reply = { type: 'done', output: template.render(request.context) };
  } catch (error) {
    reply = failure(error);
  }
  send(reply);
}

void main();
