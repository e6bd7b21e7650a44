export type ConfigTemplateErrorKind = 'syntax' | 'render' | 'timeout' | 'output_too_large';

/** A template that cannot be rendered: bad syntax, a failure while rendering, or a limit reached. */
export class ConfigTemplateError extends Error {
  override readonly name = 'ConfigTemplateError';

  constructor(
    readonly kind: ConfigTemplateErrorKind,
    message: string,
    /** 1-based position in the template, when known. */
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}
