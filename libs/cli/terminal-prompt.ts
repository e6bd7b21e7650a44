import { createInterface, Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from './cli-errors';

/**
 * Questions on stderr, answers from stdin (so stdout stays clean for pipes). One readline interface
 * serves several questions: a second interface on piped stdin would miss what the first one buffered.
 */
export class TerminalPrompt {
  private muted = false;
  private readonly lines: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private closed = false;
  private readonly readline: Interface;

  constructor() {
    // Echo goes through this stream, so muting it hides a password while it is typed.
    const echo = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        if (!this.muted) process.stderr.write(chunk);
        callback();
      },
    });
    this.readline = createInterface({ input: process.stdin, output: echo, terminal: process.stdin.isTTY === true });
    this.readline.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.readline.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  async ask(question: string, options: { hidden?: boolean } = {}): Promise<string> {
    process.stderr.write(question);
    this.muted = options.hidden === true;
    try {
      const line = await this.nextLine();
      if (line === undefined) throw new UsageError(`no answer to '${question.trim()}' (stdin closed)`);
      return line;
    } finally {
      if (this.muted) process.stderr.write('\n');
      this.muted = false;
    }
  }

  close(): void {
    this.readline.close();
  }

  private nextLine(): Promise<string | undefined> {
    const buffered = this.lines.shift();
    if (buffered !== undefined || this.closed) return Promise.resolve(buffered);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/**
 * Asks before a destructive operation. Without a terminal there is nobody to ask, so the command
 * is refused unless --force was given.
 */
export async function confirmDestructive(action: string, force: boolean | undefined): Promise<void> {
  if (force) return;
  if (!process.stdin.isTTY) throw new UsageError(`refusing to ${action} without confirmation: use --force`);
  const prompt = new TerminalPrompt();
  try {
    const answer = await prompt.ask(`${action[0].toUpperCase()}${action.slice(1)}? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError('aborted');
  } finally {
    prompt.close();
  }
}
