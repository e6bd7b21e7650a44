import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** Tag assignments of any tagged object (a generic relation: object type + id); removed with the object. */
@Entity('extras_taggeditem')
@Unique('extras_taggeditem_tag_object_key', ['tag_id', 'object_type_id', 'object_id'])
@Index('extras_taggeditem_object_idx', ['object_type_id', 'object_id'])
export class TaggedItemEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'extras_taggeditem_pkey' })
  id: number;

  @Column({ type: 'integer' })
  tag_id: number;

  @Column({ type: 'integer' })
  object_type_id: number;

  @Column({ type: 'integer' })
  object_id: number;

  @ManyToOne('extras_tag', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id', foreignKeyConstraintName: 'extras_taggeditem_tag_id_fkey' })
  tag?: unknown;

  @ManyToOne('core_objecttype', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'object_type_id', foreignKeyConstraintName: 'extras_taggeditem_object_type_id_fkey' })
  object_type?: unknown;
}
