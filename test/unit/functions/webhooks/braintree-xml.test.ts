import { XmlSyntaxError, childAt, parseXml, textAt } from '#webhooks/braintree-xml';

describe('braintree-xml', () => {
  it('reads elements, attributes, entities and CDATA when the document is well formed', () => {
    // Prepare
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<notification>
  <!-- a comment -->
  <kind>a &amp; b &lt;c&gt; &#x41;&#66;</kind>
  <subject type="object"><subscription><id>sub_1</id><note><![CDATA[<raw & text>]]></note></subscription></subject>
</notification>`;
    // Act
    const root = parseXml(xml);
    // Assess
    expect(root.name).toBe('notification');
    expect(textAt(root, 'kind')).toBe('a & b <c> AB');
    expect(childAt(root, 'subject')?.attributes).toEqual({ type: 'object' });
    expect(textAt(root, 'subject/subscription/id')).toBe('sub_1');
    expect(textAt(root, 'subject/subscription/note')).toBe('<raw & text>');
  });

  it('returns undefined when an element is missing, empty or nil', () => {
    // Prepare
    const root = parseXml('<t><empty></empty><nothing nil="true"/><blank>  </blank></t>');
    // Act
    const values = ['missing', 'empty', 'nothing', 'blank'].map((path) => textAt(root, path));
    // Assess
    expect(values).toEqual([undefined, undefined, undefined, undefined]);
  });

  it.each([
    ['a document type declaration', '<!DOCTYPE x [<!ENTITY e "boom">]><x>&e;</x>'],
    ['an unknown entity', '<x>&e;</x>'],
    ['a bare ampersand', '<x>fish & chips</x>'],
    ['a mismatched closing tag', '<x></y>'],
    ['an unclosed element', '<x><y></y>'],
    ['two root elements', '<x/><y/>'],
    ['text outside the root', 'hello'],
    ['an empty document', ''],
    ['nesting 65 levels deep', `${'<a>'.repeat(65)}${'</a>'.repeat(65)}`],
  ])('throws XmlSyntaxError when the document has %s', (_label, xml) => {
    // Act
    const parse = (): unknown => parseXml(xml);
    // Assess
    expect(parse).toThrow(XmlSyntaxError);
  });
});
