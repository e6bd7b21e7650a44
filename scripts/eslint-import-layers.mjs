// @ts-check
// ESLint rule `layers/import-layers`: which folder of the repository may import which, checked on the
// path an import resolves to. ESLint's own no-restricted-imports matches the text of the specifier,
// which cannot tell `src/platform/plugins/` from `src/plugins/` nor where `../../` leads from a given
// file. The table of layers is in eslint.config.mjs; docs/architecture.md ("Layers") explains it.
import path from 'node:path';

/**
 * @typedef {object} Layer
 * @property {string} files Files it governs, relative to the repository: a folder ends with `/`; `*` is one path segment.
 * @property {string[]} [mayImport] The only targets these files may import (the union over every layer governing a file);
 *   `$1` stands for the segment the first `*` of `files` matched (a plugin's own folder).
 * @property {string[]} [mayNotImport] Targets these files may never import.
 * @property {string} because Why, shown with the error.
 */

/** @param {string} pattern */
const escape = (pattern) => pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '([^/]+)');

/**
 * The `*` captures of `pattern` in `file` (a folder pattern matches everything under it), or null.
 * @param {string} pattern
 * @param {string} file
 */
function capture(pattern, file) {
  const match = new RegExp(`^${escape(pattern)}${pattern.endsWith('/') ? '' : '$'}`).exec(file);
  return match && match.slice(1);
}

/**
 * Whether an import of `target` (no extension) is one of `patterns`, with `$1` filled in.
 * @param {string[]} patterns
 * @param {string} target
 * @param {string[]} captures
 */
function matchesAny(patterns, target, captures) {
  return patterns.some((pattern) => {
    const filled = pattern.replace(/\$1/g, captures[0] ?? '$1');
    return capture(filled, target) !== null || (filled.endsWith('/') && capture(filled, `${target}/`) !== null);
  });
}

/**
 * The file an import specifier names, relative to `root`, without extension; undefined for a package.
 * @param {string} specifier
 * @param {string} file absolute
 * @param {string} root absolute
 */
function resolveTarget(specifier, file, root) {
  let absolute;
  if (specifier.startsWith('.')) absolute = path.resolve(path.dirname(file), specifier);
  else if (specifier.startsWith('@libs/')) absolute = path.join(root, 'libs', specifier.slice('@libs/'.length));
  else return undefined;
  return path
    .relative(root, absolute)
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|js|mjs|cjs)$/, '')
    .replace(/\/index$/, '');
}

/** @type {import('eslint').Rule.RuleModule} */
const importLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps each layer of the repository to the imports its layer allows' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                files: { type: 'string' },
                mayImport: { type: 'array', items: { type: 'string' } },
                mayNotImport: { type: 'array', items: { type: 'string' } },
                because: { type: 'string' },
              },
              required: ['files', 'because'],
              additionalProperties: false,
            },
          },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: '{{file}} may not import {{target}}: {{because}}.',
    },
  },
  create(context) {
    const { root, layers } = /** @type {{ root: string, layers: Layer[] }} */ (context.options[0]);
    const file = path.relative(root, context.physicalFilename).split(path.sep).join('/');
    const governing = layers.flatMap((layer) => {
      const captures = capture(layer.files, file);
      return captures ? [{ layer, captures }] : [];
    });
    if (governing.length === 0) return {};
    const allowing = governing.filter(({ layer }) => layer.mayImport);

    /** @param {import('estree').Node & { source?: unknown }} node */
    const check = (node) => {
      const source = /** @type {import('estree').Literal | null | undefined} */ (node.source);
      if (!source || typeof source.value !== 'string') return;
      const target = resolveTarget(source.value, context.physicalFilename, root);
      if (target === undefined) return;
      const refusing =
        governing.find(({ layer, captures }) => layer.mayNotImport && matchesAny(layer.mayNotImport, target, captures)) ??
        (allowing.length > 0 && !allowing.some(({ layer, captures }) => matchesAny(layer.mayImport ?? [], target, captures))
          ? allowing[0]
          : undefined);
      if (refusing) context.report({ node: source, messageId: 'forbidden', data: { file, target, because: refusing.layer.because } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { meta: { name: 'layers' }, rules: { 'import-layers': importLayers } };
