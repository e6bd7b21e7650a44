import type { CheerioAPI } from 'cheerio';

/**
 * HTML that reached the parser still quoted-printable encoded (a forwarded part relabelled 8bit, an
 * HTML body pasted from a raw message): `=3D` for every `=` in its attributes and `=` soft line breaks.
 * Such a body is decoded once more; any other body is returned as it is.
 */
export function undoQuotedPrintable(html: string): string {
  if (!/=3D["']/i.test(html)) return html;
  const bytes = Buffer.from(html.replace(/=\r?\n/g, ''), 'utf8');
  const decoded: number[] = [];
  for (let index = 0; index < bytes.length; index++) {
    const hex = bytes[index] === 0x3d ? bytes.toString('latin1', index + 1, index + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      decoded.push(parseInt(hex, 16));
      index += 2;
    } else {
      decoded.push(bytes[index]);
    }
  }
  return Buffer.from(decoded).toString('utf8');
}

/** Every text node of the document, in document order, raw (white space and line breaks kept). */
export function textNodes($: CheerioAPI): string[] {
  const texts: string[] = [];
  const walk = (nodes: ReturnType<ReturnType<CheerioAPI['root']>['contents']>) => {
    nodes.each((_, node) => {
      // DOM node types: 1 element, 3 text.
      if (node.nodeType === 3) texts.push($(node).text());
      else if (node.nodeType === 1 && !$(node).is('style, script, head')) walk($(node).contents());
    });
  };
  walk($.root().contents());
  return texts;
}

/**
 * The distinct non-blank text nodes after the node reading `from` up to (not including) the one
 * reading `to` (both compared trimmed), joined by ". ": a notice's free-text section that the HTML
 * spreads over cells and paragraphs, kept as written.
 */
export function textBetween($: CheerioAPI, from: string, to: string): string {
  const nodes = textNodes($);
  const start = nodes.findIndex((text) => text.trim() === from);
  if (start < 0) return '';
  const sentences: string[] = [];
  for (const text of nodes.slice(start + 1)) {
    if (text.trim() === to) break;
    if (text.trim() !== '' && !sentences.includes(text)) sentences.push(text);
  }
  return sentences.join('. ');
}
