import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('organizations')
// Names are unique regardless of case; the expression index lives in the migration only.
@Index('organizations_name_lower_key', { synchronize: false })
export class OrganizationEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'organizations_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
