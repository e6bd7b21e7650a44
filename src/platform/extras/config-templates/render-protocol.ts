/**
 * What the server and a render process (render-process.ts) say to each other. The server writes one
 * request to the process's stdin (`v8.serialize`, so dates and maps arrive as such) and closes it;
 * the process answers on stdout with JSON lines: `started` once nunjucks and the filters are loaded
 * (the render timeout counts from here), then exactly one `done` or `failed`. The server trusts
 * nothing it reads: a line that is not one of these shapes, or too much output, fails the render.
 */

export interface RenderRequest {
  /** nunjucks' package directory (loaded by path: the process can read nothing else of node_modules). */
  nunjucksDir: string;
  /** Compiled filter modules (plugins'), each exporting `TEMPLATE_FILTERS`. */
  filterModules: string[];
  templateCode: string;
  context: Record<string, unknown>;
  maxOutputBytes: number;
  maxRange: number;
  trimBlocks: boolean;
  lstripBlocks: boolean;
  keepTrailingNewline: boolean;
}

export type RenderFailureKind = 'syntax' | 'render' | 'output_too_large';

export type RenderReply =
  | { type: 'started' }
  | { type: 'done'; output: string }
  | { type: 'failed'; kind: RenderFailureKind; message: string; line?: number; column?: number };

const FAILURE_KINDS: ReadonlySet<string> = new Set<RenderFailureKind>(['syntax', 'render', 'output_too_large']);

const optionalPosition = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0);

/** The reply a line holds, or null when it is not exactly one of the protocol's shapes. */
export function parseRenderReply(line: string): RenderReply | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const reply = value as Record<string, unknown>;
  const keys = Object.keys(reply);
  switch (reply.type) {
    case 'started':
      return keys.length === 1 ? { type: 'started' } : null;
    case 'done':
      return keys.length === 2 && typeof reply.output === 'string' ? { type: 'done', output: reply.output } : null;
    case 'failed': {
      const known = keys.every((key) => ['type', 'kind', 'message', 'line', 'column'].includes(key));
      if (!known || typeof reply.kind !== 'string' || !FAILURE_KINDS.has(reply.kind) || typeof reply.message !== 'string') return null;
      if (!optionalPosition(reply.line) || !optionalPosition(reply.column)) return null;
      return {
        type: 'failed',
        kind: reply.kind as RenderFailureKind,
        message: reply.message,
        ...(reply.line === undefined ? {} : { line: reply.line as number }),
        ...(reply.column === undefined ? {} : { column: reply.column as number }),
      };
    }
    default:
      return null;
  }
}
