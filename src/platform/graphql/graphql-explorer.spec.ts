import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { runInNewContext } from 'node:vm';
import {
  EXPLORER_ASSETS,
  EXPLORER_CSP,
  EXPLORER_DEFAULT_HEADERS,
  EXPLORER_DEFAULT_QUERY,
  EXPLORER_HINT,
  explorerHtml,
} from './graphql-explorer';

const html = explorerHtml('/graphql/', '/graphql/static/');

function attributeValues(attribute: 'src' | 'href'): string[] {
  return [...html.matchAll(new RegExp(`\\s${attribute}="([^"]*)"`, 'g'))].map((match) => match[1]);
}

function inlineScripts(): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
}

describe('explorerHtml', () => {
  it('loads every script and stylesheet from the asset path, and nothing else', () => {
    const referenced = [...attributeValues('src'), ...attributeValues('href')];
    expect(referenced.sort()).toEqual(
      Object.keys(EXPLORER_ASSETS)
        .map((name) => `/graphql/static/${name}`)
        .sort(),
    );
    expect(html).not.toMatch(/https?:|\/\//i);
  });

  it('has one inline script, and every other script tag has a src', () => {
    const scriptTags = html.match(/<script[^>]*>/g) ?? [];
    expect(scriptTags.filter((tag) => tag === '<script>')).toHaveLength(1);
    expect(scriptTags.filter((tag) => tag !== '<script>').every((tag) => /^<script src="\/graphql\/static\//.test(tag))).toBe(true);
  });

  it('mounts GraphiQL against the endpoint, sending cookies and showing the headers editor', () => {
    expect(html).toContain('data-endpoint="/graphql/"');
    const [script] = inlineScripts();
    expect(script).toContain("credentials: 'same-origin'");
    expect(script).toContain("defaultEditorToolsVisibility: 'headers'");
  });

  it('prefills the headers editor with the Authorization header to complete, and says where a token comes from', () => {
    const [script] = inlineScripts();
    expect(JSON.parse(EXPLORER_DEFAULT_HEADERS)).toEqual({ Authorization: 'Token <your token>' });
    expect(script).toContain(`defaultHeaders: ${JSON.stringify(EXPLORER_DEFAULT_HEADERS)},`);
    expect(script).toContain(`defaultQuery: ${JSON.stringify(EXPLORER_DEFAULT_QUERY)},`);
    expect(EXPLORER_DEFAULT_QUERY).toMatch(/^# Set your token under Headers/);
    expect(html).toContain('POST /api/users/tokens/provision/');
  });

  it('keeps the default query narrow enough for half a 1280 px page, and the hint to one line naming how queries follow REST paths', () => {
    expect(Math.max(...EXPLORER_DEFAULT_QUERY.split('\n').map((line) => line.length))).toBeLessThanOrEqual(50);
    expect(EXPLORER_HINT).not.toContain('\n');
    expect(EXPLORER_HINT).toContain('/api/dcim/device-types/ → device_type, device_type_list');
    expect(EXPLORER_HINT.length).toBeLessThanOrEqual(160);
    expect(html).toContain('<div id="hint" title="Replace &#60;your token&#62; under Headers');
  });

  describe('the mount script, run against stand-ins for React and GraphiQL', () => {
    const TOKEN = `Token ${'0123456789abcdef'.repeat(2)}01234567`;
    /** The props the page gives GraphiQL. */
    interface ExplorerProps {
      schema: null | undefined;
      onEditHeaders: (text: string) => void;
      fetcher: (params: unknown, options: { headers?: Record<string, string> }) => Promise<unknown>;
    }
    type Rendered = () => { props: ExplorerProps };
    function mountExplorer() {
      const sent: Array<{ params: unknown; headers: unknown }> = [];
      let state: unknown;
      let setState: (value: unknown) => void = () => undefined;
      let component: Rendered = () => ({ props: {} as ExplorerProps });
      const React = {
        useState: (initial: unknown) => {
          if (state === undefined) state = initial;
          setState = (value) => (state = value);
          return [state, (value: unknown) => setState(value)];
        },
        createElement: (type: unknown, props: unknown) => (typeof type === 'function' ? { component: type } : { type, props }),
      };
      const GraphiQL = {
        createFetcher: () => (params: unknown, options: { headers?: unknown }) => {
          sent.push({ params, headers: options.headers });
          return Promise.resolve({ data: {} });
        },
      };
      const ReactDOM = {
        createRoot: () => ({ render: (element: { component: Rendered }) => (component = element.component) }),
      };
      const document = { getElementById: () => ({ dataset: { endpoint: '/graphql/' } }) };
      runInNewContext(inlineScripts()[0], { React, ReactDOM, GraphiQL, document, fetch: () => undefined });
      return { render: () => component().props, sent };
    }

    it('does not fetch the schema (schema: null) until the headers hold a complete token, then does', () => {
      const explorer = mountExplorer();
      expect(explorer.render().schema).toBeNull();
      for (const incomplete of [EXPLORER_DEFAULT_HEADERS, '{"Authorization": "Token 12"}', '{"Authorization": ', '{}']) {
        explorer.render().onEditHeaders(incomplete);
        expect(explorer.render().schema).toBeNull();
      }
      explorer.render().onEditHeaders(JSON.stringify({ Authorization: TOKEN }));
      expect(explorer.render().schema).toBeUndefined();
      explorer.render().onEditHeaders(JSON.stringify({ authorization: 'Bearer aaa.bbb.ccc' }));
      expect(explorer.render().schema).toBeUndefined();
    });

    it('never sends the placeholder header; sends a real one', async () => {
      const explorer = mountExplorer();
      const { fetcher } = explorer.render();
      await fetcher({ query: '{ site_list { id } }' }, { headers: { Authorization: 'Token <your token>', 'X-Other': '1' } });
      await fetcher({ query: '{ site_list { id } }' }, { headers: { Authorization: TOKEN } });
      expect(explorer.sent.map((request) => request.headers)).toEqual([{ 'X-Other': '1' }, { Authorization: TOKEN }]);
    });
  });

  it('accepts an asset path without the trailing slash', () => {
    expect(explorerHtml('/graphql/', '/graphql/static')).toBe(html);
  });

  it('escapes the paths it puts in attributes', () => {
    const page = explorerHtml('/graphql/?x="><script>alert(1)</script>', '/graphql/static/');
    expect(page).toContain('data-endpoint="/graphql/?x=&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(page.match(/<script/g)).toHaveLength(4);
  });

  it.each(['https://cdn.example/', '//cdn.example/', '/\\cdn.example/', 'static/', ''])(
    'refuses %j, which is not a same-origin absolute path',
    (path) => {
      expect(() => explorerHtml('/graphql/', path)).toThrow(/Not a same-origin path/);
      expect(() => explorerHtml(path, '/graphql/static/')).toThrow(/Not a same-origin path/);
    },
  );
});

describe('EXPLORER_ASSETS', () => {
  it.each(Object.entries(EXPLORER_ASSETS))('%s is an existing, non-empty file', (_name, asset) => {
    expect(isAbsolute(asset.file)).toBe(true);
    expect(statSync(asset.file).size).toBeGreaterThan(0);
  });

  it('serves scripts and stylesheets with their content types', () => {
    expect(EXPLORER_ASSETS['graphiql.min.js'].contentType).toMatch(/^text\/javascript/);
    expect(EXPLORER_ASSETS['graphiql.min.css'].contentType).toMatch(/^text\/css/);
  });

  it('finds nothing for inherited property names', () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- reading the inherited name is the point
    expect(EXPLORER_ASSETS['toString']).toBeUndefined();
    expect(EXPLORER_ASSETS['__proto__']).toBeUndefined();
  });
});

describe('EXPLORER_CSP', () => {
  const directives = new Map(
    EXPLORER_CSP.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );

  it('allows the inline script by the hash of its exact text', () => {
    const [script] = inlineScripts();
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(directives.get('script-src')).toEqual(["'self'", `'sha256-${hash}'`]);
  });

  it('allows no other origin', () => {
    const sources = [...directives.values()].flat();
    expect(sources.every((source) => /^'(self|none|unsafe-inline|sha256-[A-Za-z0-9+/]+=*)'$|^data:$/.test(source))).toBe(true);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});
