import { z } from 'zod';
import { SchemaCollector } from '#api/openapi/zod-schemas';

describe('SchemaCollector', () => {
  it('converts a schema without ids inline, without a $schema keyword', () => {
    // Prepare
    const collector = new SchemaCollector();
    // Act
    const schema = collector.convert(z.object({ amount: z.number().int().min(0), currency: z.enum(['usd', 'eur']) }), 'input', 'Charge');
    // Assess
    expect(schema).toEqual({
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, currency: { type: 'string', enum: ['usd', 'eur'] } },
      required: ['amount', 'currency'],
    });
    expect(collector.schemas()).toEqual({});
  });

  it('moves schemas with an id into components and points at them', () => {
    // Prepare
    const collector = new SchemaCollector();
    const Money = z.object({ amount: z.number(), currency: z.string() }).meta({ id: 'Money' });
    // Act
    const schema = collector.convert(z.object({ price: Money, fee: Money.optional() }), 'output', 'Order');
    // Assess
    expect(schema).toMatchObject({ properties: { price: { $ref: '#/components/schemas/Money' }, fee: { $ref: '#/components/schemas/Money' } } });
    expect(collector.schemas().Money).toMatchObject({ type: 'object', required: ['amount', 'currency'] });
    expect(JSON.stringify(collector.schemas())).not.toContain('$defs');
  });

  it('keeps the id for the first form met and suffixes the other when input and output differ', () => {
    // Prepare
    const collector = new SchemaCollector();
    const Settings = z.object({ quiet: z.boolean().default(false) }).meta({ id: 'Settings' });
    // Act
    const output = collector.convert(Settings, 'output', 'GetSettings');
    const input = collector.convert(Settings, 'input', 'SetSettings');
    // Assess
    expect(output).toEqual({ $ref: '#/components/schemas/Settings' });
    expect(input).toEqual({ $ref: '#/components/schemas/SettingsInput' });
    expect(collector.schemas().Settings).toMatchObject({ required: ['quiet'] });
    expect(collector.schemas().SettingsInput).not.toHaveProperty('required');
  });

  it('reuses one component when the same schema is converted twice', () => {
    // Prepare
    const collector = new SchemaCollector();
    const Tag = z.object({ name: z.string() }).meta({ id: 'Tag' });
    // Act
    collector.convert(z.array(Tag), 'output', 'ListTags');
    collector.convert(z.object({ tag: Tag }), 'output', 'GetTag');
    // Assess
    expect(Object.keys(collector.schemas())).toEqual(['Tag']);
  });

  it('names a recursive schema after its use and refers to it from inside itself', () => {
    // Prepare
    interface Node {
      name: string;
      children: Node[];
    }
    const Tree: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree) }));
    const collector = new SchemaCollector();
    // Act
    const schema = collector.convert(Tree, 'output', 'GetTreeResponse200');
    // Assess
    expect(schema).toEqual({ $ref: '#/components/schemas/GetTreeResponse200' });
    expect(collector.schemas().GetTreeResponse200).toMatchObject({ properties: { children: { items: { $ref: '#/components/schemas/GetTreeResponse200' } } } });
  });

  it('throws when two different schemas claim one id', () => {
    // Prepare
    const collector = new SchemaCollector();
    const first = z.object({ a: z.string() }).meta({ id: 'Clash' });
    const second = z.object({ b: z.number() }).meta({ id: 'Clash' });
    collector.convert(first, 'input', 'First');
    collector.convert(second, 'output', 'Second');
    // Act
    const third = () => collector.convert(z.object({ c: z.boolean() }).meta({ id: 'Clash' }), 'output', 'Third');
    // Assess
    expect(third).toThrow(/Two different schemas are documented under the id "ClashOutput"/);
  });

  it('documents a value JSON Schema cannot express as any value instead of failing', () => {
    // Prepare
    const collector = new SchemaCollector();
    // Act
    const schema = collector.convert(z.object({ length: z.string().transform((text) => text.length) }), 'output', 'Lengths');
    // Assess
    expect(schema).toMatchObject({ properties: { length: {} }, required: ['length'] });
  });
});
