import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';

/**
 * The GraphiQL explorer page, served entirely from this origin: the React and GraphiQL
 * browser bundles come from node_modules, so the page works without internet access.
 * Framework-free on purpose: the controller serving it only needs a string, a file map
 * and a CSP header value.
 */

export interface ExplorerAsset {
  /** Absolute path of the file to send. */
  file: string;
  contentType: string;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/**
 * Resolved through each package's package.json because react's `exports` map hides its
 * `umd/` directory from `require.resolve`; resolving (rather than a path relative to this
 * file) keeps it working from both src/ and dist/.
 */
function packageFile(packageName: string, relativePath: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), relativePath);
}

/**
 * The files the explorer page loads, by the name it requests them under. No prototype, so
 * looking up a name taken from a URL (`toString`, `__proto__`) finds nothing.
 */
export const EXPLORER_ASSETS: Record<string, ExplorerAsset> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, ExplorerAsset>, {
    'graphiql.min.js': { file: packageFile('graphiql', 'graphiql.min.js'), contentType: JAVASCRIPT },
    'graphiql.min.css': { file: packageFile('graphiql', 'graphiql.min.css'), contentType: CSS },
    'react.production.min.js': { file: packageFile('react', 'umd/react.production.min.js'), contentType: JAVASCRIPT },
    'react-dom.production.min.js': {
      file: packageFile('react-dom', 'umd/react-dom.production.min.js'),
      contentType: JAVASCRIPT,
    },
  }),
);

/** The headers editor's starting text: every query needs a token, so the page says where it goes. */
export const EXPLORER_DEFAULT_HEADERS = '{\n  "Authorization": "Token <your token>"\n}';

/** The query editor's starting text (GraphiQL keeps the user's own query after the first visit); short lines, as the editor is under half the page. */
export const EXPLORER_DEFAULT_QUERY = `# Set your token under Headers; Docs load then.
{
  site_list(pagination: { limit: 5 }) {
    id
    name
  }
}
`;

/**
 * The one-line hint above the explorer: where a token goes and comes from, and how query names
 * follow the REST paths (a resource's name with underscores: `<name>(id:)` and `<name>_list`).
 */
export const EXPLORER_HINT =
  'Replace <your token> under Headers (POST /api/users/tokens/provision/ gives one). Names follow REST: /api/dcim/device-types/ → device_type, device_type_list';

/**
 * Mounts GraphiQL. The text never varies (the endpoint comes from a data attribute), so its
 * CSP hash is computed once. The headers editor is opened, prefilled with the `Authorization`
 * header to complete; the explicit `credentials` sends the session cookie as well.
 * Headers are not persisted (GraphiQL's default), so a pasted token stays out of localStorage.
 * Every query needs a credential, so the schema is not fetched (`schema: null`) until the headers
 * hold one that looks complete (`Token <40 hex>` or `Bearer <JWT>`): the page opens without an
 * "Invalid token" error; and a header still holding the placeholder is never sent.
 */
const MOUNT_SCRIPT = `
const mount = document.getElementById('graphiql');
const PLACEHOLDER = '<your token>';
const CREDENTIAL = /^(Token\\s+[0-9a-f]{40}|Bearer\\s+[\\w-]+\\.[\\w-]+\\.[\\w-]+)$/i;
const withoutPlaceholder = (headers) =>
  Object.fromEntries(Object.entries(headers || {}).filter(([, value]) => !String(value).includes(PLACEHOLDER)));
const hasCredential = (text) => {
  try {
    const headers = JSON.parse(text || '{}');
    return Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'authorization' && CREDENTIAL.test(String(value).trim()));
  } catch {
    return false;
  }
};
const sameOrigin = GraphiQL.createFetcher({
  url: mount.dataset.endpoint,
  fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
});
const fetcher = (params, options) => sameOrigin(params, { ...options, headers: withoutPlaceholder(options && options.headers) });
function Explorer() {
  const [credential, setCredential] = React.useState(false);
  return React.createElement(GraphiQL, {
    fetcher,
    schema: credential ? undefined : null,
    onEditHeaders: (text) => setCredential(hasCredential(text)),
    defaultEditorToolsVisibility: 'headers',
    defaultHeaders: ${JSON.stringify(EXPLORER_DEFAULT_HEADERS)},
    defaultQuery: ${JSON.stringify(EXPLORER_DEFAULT_QUERY)},
  });
}
ReactDOM.createRoot(mount).render(React.createElement(Explorer));
`;

const MOUNT_SCRIPT_HASH = `sha256-${createHash('sha256').update(MOUNT_SCRIPT, 'utf8').digest('base64')}`;

/**
 * For the explorer page only. Styles need 'unsafe-inline' because the GraphiQL bundle inserts
 * style elements at runtime (and the page has one); its CSS embeds fonts and icons as data: URLs.
 */
export const EXPLORER_CSP = [
  "default-src 'self'",
  `script-src 'self' '${MOUNT_SCRIPT_HASH}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The explorer page for the GraphQL endpoint at `endpointPath`, loading EXPLORER_ASSETS from
 * `assetBasePath` (e.g. `/graphql/static/`).
 *
 * @throws Error when either path is not a same-origin absolute path, so the page can never
 * load script from, or send credentials to, another origin.
 */
export function explorerHtml(endpointPath: string, assetBasePath: string): string {
  assertSameOriginPath(endpointPath);
  assertSameOriginPath(assetBasePath);
  const assetUrl = (name: string): string => escapeAttribute(`${assetBasePath.replace(/\/*$/, '/')}${name}`);

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL API explorer</title>
<link rel="stylesheet" href="${assetUrl('graphiql.min.css')}">
<style>
body { margin: 0; display: flex; flex-direction: column; height: 100vh; }
#hint { flex: none; padding: 6px 12px; font: 13px/1.4 system-ui, sans-serif; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<div id="hint" title="${escapeAttribute(EXPLORER_HINT)}">${escapeText(EXPLORER_HINT)}</div>
<div id="graphiql" data-endpoint="${escapeAttribute(endpointPath)}">Loading…</div>
<script src="${assetUrl('react.production.min.js')}"></script>
<script src="${assetUrl('react-dom.production.min.js')}"></script>
<script src="${assetUrl('graphiql.min.js')}"></script>
<script>${MOUNT_SCRIPT}</script>
</body>
</html>
`;
}

/** `/…` but not `//…` (protocol-relative) nor `/\…` (which browsers treat the same way). */
function assertSameOriginPath(path: string): void {
  if (!/^\/(?![/\\])/.test(path)) throw new Error(`Not a same-origin path: ${JSON.stringify(path)}`);
}

function escapeText(value: string): string {
  return value.replace(/[&<>]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"'<>]/g, (char) => `&#${char.charCodeAt(0)};`);
}
