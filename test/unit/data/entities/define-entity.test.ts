import { defineEntity, EntityMismatchError } from '#data/entities/define-entity';
import { paymentEntity } from '#data/entities/payment';
import { customerEntity } from '#data/entities/customer';
import { messageEntity } from '#data/entities/message';

interface Note {
  readonly merchant_id: string;
  readonly id: string;
  readonly text: string;
  readonly pinned: boolean;
  readonly version?: number;
}

const noteEntity = defineEntity<Note>({
  name: 'note',
  key: (note) => ({ PK: `M#${note.merchant_id}`, SK: `NOTE#${note.id}` }),
  indexes: (note) => (note.pinned ? { GSI1PK: `M#${note.merchant_id}#PINNED`, GSI1SK: note.id } : {}),
  internal: ['lock'],
  parse: (attributes) => ({ version: 0, ...(attributes as unknown as Note) }),
});

describe('defineEntity', () => {
  it('writes the key, the entity name, the record and only the indexes the record is in', () => {
    // Act
    const pinned = noteEntity.toItem({ merchant_id: 'm1', id: 'n1', text: 'hi', pinned: true });
    const plain = noteEntity.toItem({ merchant_id: 'm1', id: 'n2', text: 'yo', pinned: false });
    // Assess
    expect(pinned).toEqual({
      PK: 'M#m1',
      SK: 'NOTE#n1',
      entity: 'note',
      merchant_id: 'm1',
      id: 'n1',
      text: 'hi',
      pinned: true,
      GSI1PK: 'M#m1#PINNED',
      GSI1SK: 'n1',
    });
    expect(Object.keys(plain)).not.toContain('GSI1PK');
  });

  it('reads back the record without storage and internal attributes, through parse', () => {
    // Prepare
    const item = { ...noteEntity.toItem({ merchant_id: 'm1', id: 'n1', text: 'hi', pinned: true }), lock: 'held' };
    // Act
    const note = noteEntity.fromItem(item);
    // Assess
    expect(note).toEqual({ merchant_id: 'm1', id: 'n1', text: 'hi', pinned: true, version: 0 });
  });

  it("refuses another entity's item, or one without entity, instead of casting it", () => {
    expect(() => noteEntity.fromItem({ PK: 'M#m1', SK: 'NOTE#n1', entity: 'payment' })).toThrow(EntityMismatchError);
    expect(() => noteEntity.fromItem({ PK: 'M#m1', SK: 'NOTE#n1' })).toThrow('found an item without entity');
  });

  it('builds the key from the place given beside the record, and stores the place nowhere', () => {
    // Prepare
    const tagEntity = defineEntity<{ readonly label: string }, { readonly merchant_id: string }>({
      name: 'tag',
      key: (tag, { merchant_id }) => ({ PK: `M#${merchant_id}`, SK: `TAG#${tag.label}` }),
    });
    // Act
    const item = tagEntity.toItem({ label: 'vip' }, { merchant_id: 'm1' });
    // Assess
    expect(item).toEqual({ PK: 'M#m1', SK: 'TAG#vip', entity: 'tag', label: 'vip' });
    expect(tagEntity.fromItem(item)).toEqual({ label: 'vip' });
  });

  it("gives each of the table's main records a distinct entity name", () => {
    expect(new Set([paymentEntity.name, customerEntity.name, messageEntity.name]).size).toBe(3);
  });
});
