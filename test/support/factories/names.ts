let uniqueCounter = 0;

/** `<prefix>-<n>`, unique in this test process: names and slugs of objects a test makes. */
export function unique(prefix: string): string {
  return `${prefix}-${++uniqueCounter}`;
}

/** A slug from a unique name: lower case, `[a-z0-9-]` only. */
export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
}
