import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TooManyRequestsError } from '../../../common/errors/common-errors';
import {
  ConfigTemplateError,
  configTemplateProblems,
  configureTemplateRendering,
  DEFAULT_RENDER_QUEUE_SIZE,
  DEFAULT_RENDERS_PER_REQUESTER,
  MAX_CONCURRENT_RENDERS,
  renderConfigTemplate,
} from './config-template-renderer';

// The render process runs compiled code: these tests use dist/ (npx nest build first).

async function renderError(promise: Promise<unknown>): Promise<ConfigTemplateError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigTemplateError);
    return err as ConfigTemplateError;
  }
  throw new Error('expected the render to fail');
}

const BQ = '`';
const ISSUE_PAYLOAD = String.raw`{{ x"&&Function${BQ}throw\x20typeof\x20process${BQ}${BQ}${BQ}&&" }}`;
const CRASH_PAYLOAD = String.raw`{{ x"&&Function${BQ}parentPort\x2epostMessage\x28null\x29${BQ}${BQ}${BQ}&&" }}`;
const ENDLESS = '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'template-isolation-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function scratchFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe('config templates: names that would inject code', () => {
  it.each([
    ['the issue payload', ISSUE_PAYLOAD],
    ['a payload posting a malformed message', CRASH_PAYLOAD],
    ['a {% set %} target', '{% set x"&&Function`throw\\x201`()&&" = 1 %}'],
    ['a loop variable', '{% for x"&&Function`throw\\x201`()&&" in [1] %}{% endfor %}'],
    ['a macro name', '{% macro m"&&1&&"() %}{% endmacro %}'],
    ['a macro argument', '{% macro m(a"&&1&&") %}{% endmacro %}'],
    ['a macro keyword argument given as a string', '{% macro m(a, "b\\"&&1&&\\""=1) %}{% endmacro %}'],
    ['a keyword argument of a call', '{{ range(x"&&1&&"=1) }}'],
    ['a filter name', '{{ 1 | upper"&&1&&" }}'],
    ['a test given as a string', '{{ 1 is "x\\"&&1&&\\"" }}'],
    ['a block name given as a string', '{% block "x\\"&&1&&\\"" %}{% endblock %}'],
    ['the label of a called lookup with a backslash', '{{ a["\\\\"]() }}'],
    ['a non-ASCII name', '{{ ｘ }}'],
    ['a regular expression literal', '{{ r/a/ }}'],
  ])('refuses %s as a syntax error with its line, before anything runs', async (_what, payload) => {
    const template = `hostname x\n${payload}`;
    const error = await renderError(renderConfigTemplate(template, {}));
    expect(error.kind).toBe('syntax');
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/^Template syntax error at line 2(, column \d+)?: /);
    expect(configTemplateProblems(template)).toEqual([expect.stringMatching(/^line 2: /)]);
  });

  it('keeps ordinary names, keyword arguments, tests and called lookups working', async () => {
    const template =
      "{% macro m(a, b=2) %}{{ a }}{{ b }}{% endmacro %}{{ m(1, b=3) }} {{ none_ is none }} {{ d['k'].upper() }} {{ x is divisibleby(2) }} {{ 'a b'.split()|join('_') }}";
    await expect(renderConfigTemplate(template, { none_: null, d: { k: 'v' }, x: 4 })).resolves.toBe('13 True V True a_b');
    expect(configTemplateProblems(template)).toEqual([]);
    expect(configTemplateProblems('')).toEqual([]);
  });

  it('names the last line for a template that ends too early', () => {
    expect(configTemplateProblems('a\n{% if x %}\nb')).toEqual([expect.stringMatching(/^line 3: /)]);
  });
});

describe('config templates: the render process', () => {
  afterEach(() => configureTemplateRendering({ renderProcessEntry: undefined }));

  it('runs with an empty environment, reads nothing outside its own files, and may not start processes or workers', async () => {
    const secret = scratchFile('secret-key.pem', 'PRIVATE KEY');
    const probeDir = mkdtempSync(join(scratch, 'probe-'));
    const entry = join(probeDir, 'probe.js');
    writeFileSync(
      entry,
      `const attempt = (work) => { try { work(); return 'allowed'; } catch (error) { return error.code || error.name; } };
const report = {
  env: Object.keys(process.env),
  read: attempt(() => require('node:fs').readFileSync(${JSON.stringify(secret)})),
  spawn: attempt(() => require('node:child_process').execFileSync('/bin/true')),
  worker: attempt(() => new (require('node:worker_threads').Worker)('1', { eval: true })),
};
process.stdin.resume();
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ type: 'started' }) + '\\n' + JSON.stringify({ type: 'done', output: JSON.stringify(report) }) + '\\n'));
`,
    );
    configureTemplateRendering({ renderProcessEntry: entry });
    const report = JSON.parse(await renderConfigTemplate('x', {})) as Record<string, unknown>;
    expect(report).toEqual({ env: [], read: 'ERR_ACCESS_DENIED', spawn: 'ERR_ACCESS_DENIED', worker: 'ERR_ACCESS_DENIED' });
  });

  it('strips the realm before the template runs: filters (and templates) find no Function constructor, process, fetch or WebAssembly', async () => {
    const filters = scratchFile(
      'probe-filters.js',
      `exports.TEMPLATE_FILTERS = { probe: { args: ['value'], fn: () => JSON.stringify({
  Function: typeof Function, process: typeof process, require: typeof require, fetch: typeof fetch, WebAssembly: typeof WebAssembly,
  MessagePort: typeof MessagePort, MessageChannel: typeof MessageChannel, Buffer: typeof Buffer, eval: typeof eval,
  functionConstructor: typeof (function () {}).constructor, asyncConstructor: typeof (async () => {}).constructor,
  generatorConstructor: typeof (function* () {}).constructor,
}) } };`,
    );
    const report = JSON.parse(await renderConfigTemplate('{{ 1 | probe }}', {}, {}, { filterModules: [filters] })) as Record<
      string,
      string
    >;
    expect(report).toEqual({
      Function: 'undefined',
      process: 'undefined',
      require: 'function', // the module's own require, not a global: templates have no module scope
      fetch: 'undefined',
      WebAssembly: 'undefined',
      MessagePort: 'undefined',
      MessageChannel: 'undefined',
      Buffer: 'undefined',
      eval: 'undefined',
      functionConstructor: 'undefined',
      asyncConstructor: 'undefined',
      generatorConstructor: 'undefined',
    });
  });

  it.each([
    ['answers before reporting ready', '{"type":"done","output":"x"}\n'],
    ['sends a message of another shape', '{"type":"started"}\n{"type":"failed","kind":"timeout","message":"x"}\n'],
    ['sends JSON null', '{"type":"started"}\nnull\n'],
  ])('fails the render (never throws elsewhere) when the process %s', async (_what, text) => {
    const entry = scratchFile(`answer-${text.length}.js`, `process.stdin.resume(); process.stdout.write(${JSON.stringify(text)});`);
    configureTemplateRendering({ renderProcessEntry: entry });
    const error = await renderError(renderConfigTemplate('x', {}));
    expect(error.kind).toBe('render');
    expect(error.message).toMatch(/^Template renderer failed: /);
  });

  it('stops a process that floods its output without a line break', async () => {
    const entry = scratchFile(
      'flood.js',
      `process.stdin.resume(); const chunk = 'x'.repeat(65536); (function write() { while (process.stdout.write(chunk)); process.stdout.once('drain', write); })();`,
    );
    configureTemplateRendering({ renderProcessEntry: entry });
    const error = await renderError(renderConfigTemplate('x', {}, { maxOutputBytes: 1024 }));
    expect(error.kind).toBe('output_too_large');
  });
});

describe('config templates: the render queue', () => {
  afterEach(() =>
    configureTemplateRendering({
      concurrency: MAX_CONCURRENT_RENDERS,
      queueSize: DEFAULT_RENDER_QUEUE_SIZE,
      perRequester: DEFAULT_RENDERS_PER_REQUESTER,
    }),
  );

  it("bounds one requester's renders (429) and never lets it hold up another's", async () => {
    configureTemplateRendering({ concurrency: 2, queueSize: 8, perRequester: 3 });
    // The order in which renders settle: refusals at once, the endless ones after their 3000 ms.
    const settled: string[] = [];
    const flood = Array.from({ length: 16 }, () =>
      renderConfigTemplate(ENDLESS, {}, { timeoutMs: 3000 }, { requester: 'user:7' })
        .then(
          () => 'rendered',
          (error: unknown) =>
            error instanceof TooManyRequestsError ? 'refused' : error instanceof ConfigTemplateError ? error.kind : 'other',
        )
        .then((outcome) => {
          settled.push(outcome);
          return outcome;
        }),
    );
    await expect(renderConfigTemplate('ok {{ n }}', { n: 1 }, {}, { requester: 'user:8' })).resolves.toBe('ok 1');
    settled.push('other requester');
    const outcomes = await Promise.all(flood);
    // The flood holds one of the two slots, so the other requester's render starts at once rather than
    // after an endless one (3000 ms each). On a loaded machine the endless render already running may
    // still settle first; a queued render would come after two.
    expect(settled.filter((outcome) => outcome !== 'refused').indexOf('other requester')).toBeLessThan(2);
    expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(13);
    expect(outcomes.filter((outcome) => outcome === 'timeout')).toHaveLength(3);
  });

  it('refuses a render when the process-wide queue is full', async () => {
    configureTemplateRendering({ concurrency: 1, queueSize: 1 });
    const running = renderConfigTemplate(ENDLESS, {}, { timeoutMs: 1000 }).catch((error: unknown) => error);
    const waiting = renderConfigTemplate('a', {}).catch((error: unknown) => error);
    await expect(renderConfigTemplate('b', {})).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await running).toBeInstanceOf(ConfigTemplateError);
    expect(await waiting).toBe('a');
  });
});
