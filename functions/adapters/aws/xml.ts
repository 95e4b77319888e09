/**
 * The little XML the REST-XML adapters need: building request documents from escaped text, and
 * reading answers into a tree of elements (names without namespace prefixes, text unescaped).
 * Linear scanning, no entity expansion beyond the five predefined ones and character references,
 * no DTDs: an answer is data, never instructions.
 */
export interface XmlElement {
  readonly name: string;
  readonly children: XmlElement[];
  text: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text escaped for an XML element or attribute. */
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);

const unescapeXml = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, entity: string) => {
    if (!entity.startsWith('#')) return ENTITIES[entity] ?? whole;
    const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

/** The document's root element, or undefined when there is none (an empty body). */
export function parseXml(document: string): XmlElement | undefined {
  const root: XmlElement = { name: '', children: [], text: '' };
  const open: XmlElement[] = [root];
  for (const [token] of document.matchAll(/<!\[CDATA\[[\s\S]*?\]\]>|<[^>]*>|[^<]+/g)) {
    const current = open[open.length - 1] ?? root;
    if (token.startsWith('<![CDATA[')) {
      current.text += token.slice(9, -3);
    } else if (!token.startsWith('<')) {
      current.text += unescapeXml(token);
    } else if (token.startsWith('</')) {
      if (open.length > 1) open.pop();
    } else if (!token.startsWith('<?') && !token.startsWith('<!')) {
      const name = (/^<\s*([^\s/>]+)/.exec(token)?.[1] ?? '').replace(/^[^:]*:/, '');
      const element: XmlElement = { name, children: [], text: '' };
      current.children.push(element);
      if (!token.endsWith('/>')) open.push(element);
    }
  }
  return root.children[0];
}

/** The first child element named `name`. */
export const child = (element: XmlElement | undefined, name: string): XmlElement | undefined => element?.children.find((candidate) => candidate.name === name);

/** The trimmed text of the element at `path` under `element`. */
export function textAt(element: XmlElement | undefined, ...path: string[]): string | undefined {
  let at = element;
  for (const name of path) at = child(at, name);
  return at?.text.trim();
}
