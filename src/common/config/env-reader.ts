/** One problem with one environment variable, reported at start before anything else runs. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

export class InvalidConfigurationError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.variable}: ${p.message}`).join('; '));
    this.name = 'InvalidConfigurationError';
  }

  /** One line per bad variable, as printed by the process before it exits 1. */
  lines(): string[] {
    return this.problems.map((p) => `Invalid configuration: ${p.variable} ${p.message}`);
  }
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * Reads typed values from an environment map, collecting every problem instead of stopping at the
 * first, so an operator fixes all of them in one round. Secret values are never echoed back.
 */
export class EnvReader {
  private readonly problems: ConfigProblem[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly env: Record<string, string | undefined>) {}

  /** Every variable name this reader was asked for (used to keep docs/configuration.md complete). */
  variables(): string[] {
    return [...this.names];
  }

  raw(name: string): string | undefined {
    this.names.add(name);
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  problem(variable: string, message: string): void {
    this.problems.push({ variable, message });
  }

  string(name: string, fallback: string, rule?: { pattern: RegExp; description: string }): string {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (rule && !rule.pattern.test(value)) {
      this.problem(name, `must be ${rule.description} (got ${JSON.stringify(value)})`);
      return fallback;
    }
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, range: { min: number; max: number }): number {
    return this.optionalInt(name, range) ?? fallback;
  }

  optionalInt(name: string, range: { min: number; max: number }): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < range.min || parsed > range.max) {
      this.problem(name, `must be an integer from ${range.min} to ${range.max} (got ${JSON.stringify(value)})`);
      return undefined;
    }
    return parsed;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const word = value.toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    this.problem(name, `must be true or false (got ${JSON.stringify(value)})`);
    return fallback;
  }

  oneOf<T extends string | number>(name: string, choices: readonly T[], fallback: T, normalise?: (v: string) => string): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const candidate = normalise ? normalise(value) : value;
    const match = choices.find((choice) => String(choice) === candidate);
    if (match === undefined) {
      this.problem(name, `must be one of ${choices.join(', ')} (got ${JSON.stringify(value)})`);
      return fallback;
    }
    return match;
  }

  /** A comma-separated list, or a JSON array of strings (the form FastAPI-era deployments use). */
  list(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    if (value.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) {
          return parsed.map((item) => item.trim()).filter((item) => item !== '');
        }
      } catch {
        // reported below
      }
      this.problem(name, 'must be a comma-separated list or a JSON array of strings');
      return [];
    }
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }

  throwIfInvalid(): void {
    if (this.problems.length > 0) throw new InvalidConfigurationError(this.problems);
  }
}
