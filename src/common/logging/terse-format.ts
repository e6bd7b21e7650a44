import type { DestinationStream } from 'pino';

/** Fields every line has, shown in the line's frame rather than as key=value. */
const FRAME_FIELDS = new Set(['level', 'time', 'msg', 'service', 'err']);
const LONGEST_VALUE = 120;

/**
 * pino's JSON lines rewritten for a person at a terminal: `12:04:05.123 INFO  message key=value …`,
 * an error's stack on the lines after it. Used when LOG_FORMAT=pretty (the default on a terminal).
 */
export function terseDestination(out: { write(text: string): unknown } = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line)) };
}

export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'string' ? new Date(entry.time) : new Date();
  const level = String(entry.level ?? '')
    .toUpperCase()
    .padEnd(5);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const message = [entry.msg, err?.message && err.message !== entry.msg ? err.message : undefined].filter(Boolean).join(': ');
  const fields = Object.entries(entry)
    // A value the message already spells out (a URL, a path) is not repeated.
    .filter(([key, value]) => !FRAME_FIELDS.has(key) && value !== undefined && !(typeof value === 'string' && message.includes(value)))
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  const head = [clockTime(time), level, message, ...fields].filter((part) => part !== '').join(' ');
  const stack = err?.stack && (entry.level === 'error' || entry.level === 'fatal') ? `\n${err.stack}` : '';
  return `${head}${stack}\n`;
}

function clockTime(time: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`;
}

function formatValue(value: unknown): string {
  const text = typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}
