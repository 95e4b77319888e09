/**
 * A minimal, non-validating XML reader for Braintree's webhook `<notification>` documents: elements,
 * attributes, text, CDATA, comments and the five predefined entities plus character references.
 * Document type declarations are refused, so no entity can expand. The braintree SDK's xml2js is
 * a devDependency only, hence this reader.
 */

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text, entities decoded (text of children excluded). */
  readonly text: string;
}

export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

const MAX_DEPTH = 64;
const NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(value: string): string {
  return value.replace(/&([^;&]*)(;?)/g, (_, entity: string, semicolon: string) => {
    if (semicolon !== ';' || entity.length > 10) throw new XmlSyntaxError('malformed entity reference');
    if (Object.hasOwn(PREDEFINED, entity)) return PREDEFINED[entity] ?? '';
    const hex = /^#x([0-9a-f]{1,6})$/i.exec(entity)?.[1];
    const decimal = /^#(\d{1,7})$/.exec(entity)?.[1];
    const point = hex !== undefined ? Number.parseInt(hex, 16) : decimal !== undefined ? Number.parseInt(decimal, 10) : NaN;
    if (!Number.isInteger(point) || point > 0x10ffff) throw new XmlSyntaxError(`unknown entity &${entity};`);
    return String.fromCodePoint(point);
  });
}

type Open = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const close = (open: Open): XmlElement => ({ name: open.name, attributes: open.attributes, children: open.children, text: open.text });

/** The document's root element; throws XmlSyntaxError on anything malformed. */
export function parseXml(xml: string): XmlElement {
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  let position = 0;
  const skipPast = (terminator: string): void => {
    const end = xml.indexOf(terminator, position);
    if (end === -1) throw new XmlSyntaxError(`unterminated construct, expected ${terminator}`);
    position = end + terminator.length;
  };
  while (position < xml.length) {
    const lt = xml.indexOf('<', position);
    const chunk = xml.slice(position, lt === -1 ? xml.length : lt);
    const current = stack.at(-1);
    if (current) current.text += decode(chunk);
    else if (chunk.trim() !== '') throw new XmlSyntaxError('text outside the root element');
    if (lt === -1) break;
    position = lt;
    if (xml.startsWith('<?', position)) skipPast('?>');
    else if (xml.startsWith('<!--', position)) skipPast('-->');
    else if (xml.startsWith('<![CDATA[', position)) {
      const end = xml.indexOf(']]>', position);
      if (end === -1 || current === undefined) throw new XmlSyntaxError('CDATA outside an element or unterminated');
      current.text += xml.slice(position + 9, end);
      position = end + 3;
    } else if (xml.startsWith('<!', position)) throw new XmlSyntaxError('declarations are not accepted');
    else if (xml.startsWith('</', position)) {
      NAME.lastIndex = position + 2;
      const name = NAME.exec(xml)?.[0];
      const end = xml.indexOf('>', position);
      const open = stack.pop();
      if (name === undefined || end === -1 || open?.name !== name || xml.slice(NAME.lastIndex, end).trim() !== '')
        throw new XmlSyntaxError('mismatched closing tag');
      position = end + 1;
      const element = close(open);
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else root = element;
    } else {
      if (root !== undefined) throw new XmlSyntaxError('more than one root element');
      NAME.lastIndex = position + 1;
      const name = NAME.exec(xml)?.[0];
      if (name === undefined) throw new XmlSyntaxError('malformed tag');
      position = NAME.lastIndex;
      const attributes: Record<string, string> = {};
      for (let match = matchAttribute(xml, position); match !== undefined; match = matchAttribute(xml, position)) {
        if (!Object.hasOwn(attributes, match.name)) attributes[match.name] = decode(match.value);
        position = match.next;
      }
      const tail = /\s*(\/?)>/y;
      tail.lastIndex = position;
      const end = tail.exec(xml);
      if (end === null) throw new XmlSyntaxError(`malformed tag <${name}>`);
      position = tail.lastIndex;
      const open: Open = { name, attributes, children: [], text: '' };
      if (end[1] === '/') {
        const parent = stack.at(-1);
        if (parent) parent.children.push(close(open));
        else root = close(open);
      } else {
        if (stack.length >= MAX_DEPTH) throw new XmlSyntaxError('elements nested too deeply');
        stack.push(open);
      }
    }
  }
  if (stack.length > 0 || root === undefined) throw new XmlSyntaxError('unclosed element or no root');
  return root;
}

function matchAttribute(xml: string, position: number): { name: string; value: string; next: number } | undefined {
  ATTRIBUTE.lastIndex = position;
  const match = ATTRIBUTE.exec(xml);
  if (match?.[1] === undefined) return undefined;
  return { name: match[1], value: match[2] ?? match[3] ?? '', next: ATTRIBUTE.lastIndex };
}

/** The first child element at a `/`-separated path (`customer/email`), or undefined. */
export function childAt(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let current = element;
  for (const name of path.split('/')) current = current?.children.find((child) => child.name === name);
  return current;
}

/** The trimmed text at a path, or undefined when missing, empty or `nil="true"`. */
export function textAt(element: XmlElement | undefined, path: string): string | undefined {
  const found = childAt(element, path);
  if (found === undefined || found.attributes.nil === 'true') return undefined;
  const value = found.text.trim();
  return value === '' ? undefined : value;
}
