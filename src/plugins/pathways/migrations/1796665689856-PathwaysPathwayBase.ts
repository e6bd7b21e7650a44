import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One id space for every pathway: the `pathways_pathway` base table, filled from the five kinds'
 * tables. A kind's row keeps its id unless an earlier kind (in the order conduit bank, conduit, aerial
 * span, direct buried, innerduct) already holds it; then it gets a new id past every existing one,
 * and every reference to it follows: the kinds' own relations, cable segments (now `pathway`, one
 * id), and every generic reference of the platform (change log, journal, tags, …) whose object type
 * is that kind. Columns renamed or retyped as NetBox's plugin keeps them keep their values; values
 * the new choices do not hold are kept in `comments`.
 */

const KINDS: ReadonlyArray<readonly [model: string, pathwayType: string]> = [
  ['conduitbank', 'conduit_bank'],
  ['conduit', 'conduit'],
  ['aerialspan', 'aerial'],
  ['directburied', 'direct_buried'],
  ['innerduct', 'innerduct'],
];

const SHARED = [
  'created',
  'last_updated',
  'label',
  'status',
  'path',
  'bbox',
  'geo_length',
  'start_structure_id',
  'end_structure_id',
  'start_location_id',
  'end_location_id',
  'tenant_id',
  'installed_by_id',
  'length',
  'installation_date',
  'commissioned_date',
  'comments',
]
  .map((column) => `"${column}"`)
  .join(', ');

const FACES = `('north', 'south', 'east', 'west', 'other')`;

/** Appends a line to `comments` (separated by a blank line when there is text already). */
const appendComment = (line: string) => `comments = CASE WHEN comments = '' THEN ${line} ELSE comments || E'\\n\\n' || ${line} END`;

async function populateBase(queryRunner: QueryRunner): Promise<void> {
  const [{ highest }] = (await queryRunner.query(
    `SELECT GREATEST(${KINDS.map(([model]) => `(SELECT max(id) FROM "pathways_${model}")`).join(', ')}, 0) AS highest`,
  )) as Array<{ highest: number }>;
  if (highest > 0) await queryRunner.query(`SELECT setval('pathways_pathway_id_seq', $1)`, [highest]);
  await queryRunner.query(`CREATE TABLE "pathways_pathway_idmap" ("model" varchar(50) NOT NULL, "old_id" integer NOT NULL, "new_id" integer NOT NULL)`);
  for (const [model, pathwayType] of KINDS) {
    await queryRunner.query(
      `INSERT INTO pathways_pathway_idmap (model, old_id, new_id)
         SELECT $1, k.id, CASE WHEN EXISTS (SELECT 1 FROM pathways_pathway p WHERE p.id = k.id) THEN nextval('pathways_pathway_id_seq') ELSE k.id END
           FROM "pathways_${model}" k ORDER BY k.id`,
      [model],
    );
    await queryRunner.query(
      `INSERT INTO pathways_pathway (id, pathway_type, ${SHARED})
         SELECT m.new_id, $2, ${SHARED.split(', ').map((column) => `k.${column}`).join(', ')}
           FROM "pathways_${model}" k JOIN pathways_pathway_idmap m ON m.model = $1 AND m.old_id = k.id`,
      [model, pathwayType],
    );
    await queryRunner.query(
      `UPDATE "pathways_${model}" k SET id = m.new_id FROM pathways_pathway_idmap m WHERE m.model = $1 AND m.old_id = k.id AND m.new_id <> m.old_id`,
      [model],
    );
  }
  await queryRunner.query(
    `UPDATE pathways_conduit c SET conduit_bank_id = m.new_id FROM pathways_pathway_idmap m
      WHERE m.model = 'conduitbank' AND m.old_id = c.conduit_bank_id AND m.new_id <> m.old_id`,
  );
  await queryRunner.query(
    `UPDATE pathways_innerduct i SET parent_conduit_id = m.new_id FROM pathways_pathway_idmap m
      WHERE m.model = 'conduit' AND m.old_id = i.parent_conduit_id AND m.new_id <> m.old_id`,
  );
  // Cable segments: (object type, id) becomes the one pathway id.
  await queryRunner.query(
    `UPDATE pathways_cablesegment s SET pathway_id = m.new_id FROM core_objecttype t, pathways_pathway_idmap m
      WHERE t.id = s.pathway_type_id AND m.model = t.model AND m.old_id = s.pathway_id AND m.new_id <> m.old_id`,
  );
  await queryRunner.query(`ALTER TABLE "pathways_cablesegment" DROP COLUMN "pathway_type_id"`);
  await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ALTER COLUMN "pathway_id" DROP NOT NULL`);
  // Every generic reference (a `<name>_type_id` to the object types beside its `<name>_id`) to a renumbered pathway.
  const generic = (await queryRunner.query(
    `SELECT kcu.table_name, kcu.column_name
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
       JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
      WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND ccu.table_name = 'core_objecttype'
        AND kcu.column_name LIKE '%\\_type\\_id'`,
  )) as Array<{ table_name: string; column_name: string }>;
  for (const { table_name: table, column_name: typeColumn } of generic) {
    const idColumn = typeColumn.replace(/_type_id$/, '_id');
    const [present] = (await queryRunner.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
      [table, idColumn],
    )) as unknown[];
    if (!present) continue;
    await queryRunner.query(
      `UPDATE "${table}" x SET "${idColumn}" = m.new_id FROM core_objecttype t, pathways_pathway_idmap m
        WHERE t.id = x."${typeColumn}" AND t.app_label = 'pathways' AND t.model = m.model AND m.old_id = x."${idColumn}" AND m.new_id <> m.old_id`,
    );
  }
  await queryRunner.query(`DROP TABLE "pathways_pathway_idmap"`);
}

/**
 * A new row of a kind gets its id from a new base row of its `pathway_type` (the hooks then copy the
 * shared columns): the kinds' own sequences are left unused, so an id is never given twice.
 */
async function createIdTriggers(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`CREATE FUNCTION pathways_pathway_base_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO pathways_pathway (pathway_type) VALUES (TG_ARGV[0]) RETURNING id INTO NEW.id;
      RETURN NEW;
    END $$`);
  for (const [model, pathwayType] of KINDS)
    await queryRunner.query(
      `CREATE TRIGGER "pathways_${model}_base_row" BEFORE INSERT ON "pathways_${model}" FOR EACH ROW EXECUTE FUNCTION pathways_pathway_base_row('${pathwayType}')`,
    );
}

async function dropIdTriggers(queryRunner: QueryRunner): Promise<void> {
  for (const [model] of KINDS) await queryRunner.query(`DROP TRIGGER "pathways_${model}_base_row" ON "pathways_${model}"`);
  await queryRunner.query(`DROP FUNCTION pathways_pathway_base_row()`);
}

/** The columns of before, from the new ones (ids stay as renumbered; segments of pathways without a kind's table go). */
async function restoreColumns(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ADD "pathway_type_id" integer`);
  await queryRunner.query(
    `UPDATE pathways_cablesegment s SET pathway_type_id = t.id
       FROM pathways_pathway p, core_objecttype t
      WHERE p.id = s.pathway_id AND t.app_label = 'pathways'
        AND t.model = CASE p.pathway_type ${KINDS.map(([model, type]) => `WHEN '${type}' THEN '${model}'`).join(' ')} END`,
  );
  await queryRunner.query(`DELETE FROM pathways_cablesegment WHERE pathway_type_id IS NULL OR pathway_id IS NULL`);
  await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ALTER COLUMN "pathway_type_id" SET NOT NULL`);
  await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ALTER COLUMN "pathway_id" SET NOT NULL`);
  for (const table of ['pathways_conduitbank', 'pathways_conduit']) {
    await queryRunner.query(`ALTER TABLE "${table}" ADD "faces" character varying(50) NOT NULL DEFAULT ''`);
    await queryRunner.query(`UPDATE "${table}" SET faces = concat_ws('/', NULLIF(start_face, ''), NULLIF(end_face, ''))`);
    await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "start_face"`);
    await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "end_face"`);
  }
  await queryRunner.query(`ALTER TABLE "pathways_aerialspan" RENAME COLUMN "start_attachment_height" TO "attachment_height_start"`);
  await queryRunner.query(`ALTER TABLE "pathways_aerialspan" RENAME COLUMN "end_attachment_height" TO "attachment_height_end"`);
  await queryRunner.query(`ALTER TABLE "pathways_directburied" ALTER COLUMN "armor_type" TYPE character varying(50) USING left(armor_type, 50)`);
  await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "color" TYPE character varying(50)`);
  await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" DROP DEFAULT`);
  await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" DROP NOT NULL`);
  await queryRunner.query(
    `ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" TYPE integer USING CASE WHEN position ~ '^[0-9]{1,4}$' THEN position::integer END`,
  );
}

export class PathwaysPathwayBase1796665689856 implements MigrationInterface {
  name = 'PathwaysPathwayBase1796665689856';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP CONSTRAINT "pathways_conduit_conduit_bank_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment" DROP CONSTRAINT "pathways_cablesegment_pathway_type_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_cablesegment_pathway_idx"`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" DROP CONSTRAINT "pathways_innerduct_parent_conduit_id_fkey"`);
    await queryRunner.query(`CREATE TABLE "pathways_sitegeometry" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "site_id" integer NOT NULL, "structure_id" integer, "geometry" jsonb, "bbox" box, "comments" text NOT NULL DEFAULT '', CONSTRAINT "pathways_sitegeometry_site_id_key" UNIQUE ("site_id"), CONSTRAINT "pathways_sitegeometry_structure_id_key" UNIQUE ("structure_id"), CONSTRAINT "pathways_sitegeometry_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_sitegeometry_site_id_idx" ON "pathways_sitegeometry"  ("site_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_sitegeometry_structure_id_idx" ON "pathways_sitegeometry"  ("structure_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_sitegeometry_bbox_gist" ON "pathways_sitegeometry" USING gist ("bbox") `);
    await queryRunner.query(`CREATE TABLE "pathways_pathway" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "label" character varying(100) NOT NULL DEFAULT '', "status" character varying(50) NOT NULL DEFAULT 'active', "path" jsonb, "bbox" box, "geo_length" numeric(12,2), "start_structure_id" integer, "end_structure_id" integer, "start_location_id" integer, "end_location_id" integer, "tenant_id" integer, "installed_by_id" integer, "length" numeric(10,2), "installation_date" date, "commissioned_date" date, "comments" text NOT NULL DEFAULT '', "pathway_type" character varying(50) NOT NULL DEFAULT '', CONSTRAINT "pathways_pathway_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_start_structure_id_idx" ON "pathways_pathway"  ("start_structure_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_end_structure_id_idx" ON "pathways_pathway"  ("end_structure_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_start_location_id_idx" ON "pathways_pathway"  ("start_location_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_end_location_id_idx" ON "pathways_pathway"  ("end_location_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_tenant_id_idx" ON "pathways_pathway"  ("tenant_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_installed_by_id_idx" ON "pathways_pathway"  ("installed_by_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathway_bbox_gist" ON "pathways_pathway" USING gist ("bbox") `);
    await queryRunner.query(`CREATE TABLE "pathways_conduitjunction" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "label" character varying(100) NOT NULL DEFAULT '', "trunk_conduit_id" integer NOT NULL, "branch_conduit_id" integer NOT NULL, "towards_structure_id" integer NOT NULL, "position_on_trunk" numeric(7,6) NOT NULL, "comments" text NOT NULL DEFAULT '', CONSTRAINT "pathways_conduitjunction_trunk_conduit_id_position_on_trunk_key" UNIQUE ("trunk_conduit_id", "position_on_trunk"), CONSTRAINT "pathways_conduitjunction_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_conduitjunction_trunk_conduit_id_idx" ON "pathways_conduitjunction"  ("trunk_conduit_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_conduitjunction_branch_conduit_id_idx" ON "pathways_conduitjunction"  ("branch_conduit_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_conduitjunction_towards_structure_id_idx" ON "pathways_conduitjunction"  ("towards_structure_id") `);
    await queryRunner.query(`CREATE TABLE "pathways_pathwaylocation" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "pathway_id" integer NOT NULL, "site_id" integer, "location_id" integer, "sequence" integer NOT NULL DEFAULT '0', "comments" text NOT NULL DEFAULT '', CONSTRAINT "pathways_pathwaylocation_pathway_id_sequence_key" UNIQUE ("pathway_id", "sequence"), CONSTRAINT "pathways_pathwaylocation_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_pathwaylocation_pathway_id_idx" ON "pathways_pathwaylocation"  ("pathway_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathwaylocation_site_id_idx" ON "pathways_pathwaylocation"  ("site_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_pathwaylocation_location_id_idx" ON "pathways_pathwaylocation"  ("location_id") `);
    await queryRunner.query(`CREATE TABLE "pathways_cablesegment_lashed_with" ("cablesegment_id" integer NOT NULL, "to_cablesegment_id" integer NOT NULL, CONSTRAINT "pathways_cablesegment_lashed_with_pkey" PRIMARY KEY ("cablesegment_id", "to_cablesegment_id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_cablesegment_lashed_with_to_cablesegment_id_idx" ON "pathways_cablesegment_lashed_with"  ("to_cablesegment_id") `);
    await queryRunner.query(`CREATE TABLE "pathways_plannedroute" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(200) NOT NULL DEFAULT '', "status" character varying(50) NOT NULL DEFAULT 'draft', "start_structure_id" integer, "end_structure_id" integer, "start_location_id" integer, "end_location_id" integer, "pathway_ids" jsonb, "constraints" jsonb, "tenant_id" integer, "cable_id" integer, "parent_id" integer, "comments" text NOT NULL DEFAULT '', CONSTRAINT "pathways_plannedroute_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_start_structure_id_idx" ON "pathways_plannedroute"  ("start_structure_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_end_structure_id_idx" ON "pathways_plannedroute"  ("end_structure_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_start_location_id_idx" ON "pathways_plannedroute"  ("start_location_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_end_location_id_idx" ON "pathways_plannedroute"  ("end_location_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_tenant_id_idx" ON "pathways_plannedroute"  ("tenant_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_cable_id_idx" ON "pathways_plannedroute"  ("cable_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_plannedroute_parent_id_idx" ON "pathways_plannedroute"  ("parent_id") `);
    await queryRunner.query(`ALTER TABLE "pathways_circuitgeometry" ADD "provider_reference" character varying(200) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "pathways_circuitgeometry" ADD "comments" text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD "start_junction_id" integer`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD "end_junction_id" integer`);
    await queryRunner.query(`CREATE INDEX "pathways_conduit_start_junction_id_idx" ON "pathways_conduit"  ("start_junction_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_conduit_end_junction_id_idx" ON "pathways_conduit"  ("end_junction_id") `);
    await queryRunner.query(`CREATE INDEX "pathways_cablesegment_pathway_id_idx" ON "pathways_cablesegment"  ("pathway_id") `);
    await this.convertColumns(queryRunner);
    await populateBase(queryRunner);
    await queryRunner.query(`ALTER TABLE "pathways_sitegeometry" ADD CONSTRAINT "pathways_sitegeometry_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "dcim_site"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_sitegeometry" ADD CONSTRAINT "pathways_sitegeometry_structure_id_fkey" FOREIGN KEY ("structure_id") REFERENCES "pathways_structure"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_start_structure_id_fkey" FOREIGN KEY ("start_structure_id") REFERENCES "pathways_structure"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_end_structure_id_fkey" FOREIGN KEY ("end_structure_id") REFERENCES "pathways_structure"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_start_location_id_fkey" FOREIGN KEY ("start_location_id") REFERENCES "dcim_location"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_end_location_id_fkey" FOREIGN KEY ("end_location_id") REFERENCES "dcim_location"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenancy_tenant"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" ADD CONSTRAINT "pathways_pathway_installed_by_id_fkey" FOREIGN KEY ("installed_by_id") REFERENCES "tenancy_tenant"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD CONSTRAINT "pathways_conduit_conduit_bank_id_fkey" FOREIGN KEY ("conduit_bank_id") REFERENCES "pathways_conduitbank"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD CONSTRAINT "pathways_conduit_start_junction_id_fkey" FOREIGN KEY ("start_junction_id") REFERENCES "pathways_conduitjunction"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD CONSTRAINT "pathways_conduit_end_junction_id_fkey" FOREIGN KEY ("end_junction_id") REFERENCES "pathways_conduitjunction"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" ADD CONSTRAINT "pathways_conduitjunction_trunk_conduit_id_fkey" FOREIGN KEY ("trunk_conduit_id") REFERENCES "pathways_conduit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" ADD CONSTRAINT "pathways_conduitjunction_branch_conduit_id_fkey" FOREIGN KEY ("branch_conduit_id") REFERENCES "pathways_conduit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" ADD CONSTRAINT "pathways_conduitjunction_towards_structure_id_fkey" FOREIGN KEY ("towards_structure_id") REFERENCES "pathways_structure"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" ADD CONSTRAINT "pathways_pathwaylocation_pathway_id_fkey" FOREIGN KEY ("pathway_id") REFERENCES "pathways_pathway"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" ADD CONSTRAINT "pathways_pathwaylocation_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "dcim_site"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" ADD CONSTRAINT "pathways_pathwaylocation_location_id_fkey" FOREIGN KEY ("location_id") REFERENCES "dcim_location"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ADD CONSTRAINT "pathways_cablesegment_pathway_id_fkey" FOREIGN KEY ("pathway_id") REFERENCES "pathways_pathway"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment_lashed_with" ADD CONSTRAINT "pathways_cablesegment_lashed_with_cablesegment_id_fkey" FOREIGN KEY ("cablesegment_id") REFERENCES "pathways_cablesegment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment_lashed_with" ADD CONSTRAINT "pathways_cablesegment_lashed_with_to_cablesegment_id_fkey" FOREIGN KEY ("to_cablesegment_id") REFERENCES "pathways_cablesegment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_start_structure_id_fkey" FOREIGN KEY ("start_structure_id") REFERENCES "pathways_structure"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_end_structure_id_fkey" FOREIGN KEY ("end_structure_id") REFERENCES "pathways_structure"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_start_location_id_fkey" FOREIGN KEY ("start_location_id") REFERENCES "dcim_location"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_end_location_id_fkey" FOREIGN KEY ("end_location_id") REFERENCES "dcim_location"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenancy_tenant"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_cable_id_fkey" FOREIGN KEY ("cable_id") REFERENCES "dcim_cable"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" ADD CONSTRAINT "pathways_plannedroute_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "pathways_plannedroute"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ADD CONSTRAINT "pathways_innerduct_parent_conduit_id_fkey" FOREIGN KEY ("parent_conduit_id") REFERENCES "pathways_conduit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await createIdTriggers(queryRunner);
  }

  /** Faces, attachment heights, encasement, armor, innerduct colour and position as NetBox's plugin keeps them. */
  private async convertColumns(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['pathways_conduitbank', 'pathways_conduit']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "start_face" character varying(50) NOT NULL DEFAULT ''`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "end_face" character varying(50) NOT NULL DEFAULT ''`);
      // One face named is the start's; "north/south" (or "north-south", "north south") names both.
      await queryRunner.query(
        `UPDATE "${table}" SET start_face = lower(split_part(regexp_replace(trim(faces), '\\s*[/,;-]\\s*|\\s+', '/', 'g'), '/', 1)),
                               end_face = lower(split_part(regexp_replace(trim(faces), '\\s*[/,;-]\\s*|\\s+', '/', 'g'), '/', 2))`,
      );
      await queryRunner.query(
        `UPDATE "${table}" SET start_face = CASE WHEN start_face IN ${FACES} THEN start_face ELSE '' END,
                               end_face = CASE WHEN end_face IN ${FACES} THEN end_face ELSE '' END`,
      );
      await queryRunner.query(
        `UPDATE "${table}" SET ${appendComment(`'Faces: ' || faces`)}
          WHERE faces <> '' AND concat_ws('/', NULLIF(start_face, ''), NULLIF(end_face, '')) <> lower(regexp_replace(trim(faces), '\\s*[/,;-]\\s*|\\s+', '/', 'g'))`,
      );
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "faces"`);
    }
    await queryRunner.query(
      `UPDATE pathways_conduitbank SET ${appendComment(`'Encasement: ' || encasement_type`)}, encasement_type = 'direct_buried'
        WHERE encasement_type IN ('sand', 'soil')`,
    );
    await queryRunner.query(`UPDATE pathways_conduitbank SET encasement_type = '' WHERE encasement_type = 'none'`);
    await queryRunner.query(`ALTER TABLE "pathways_aerialspan" RENAME COLUMN "attachment_height_start" TO "start_attachment_height"`);
    await queryRunner.query(`ALTER TABLE "pathways_aerialspan" RENAME COLUMN "attachment_height_end" TO "end_attachment_height"`);
    await queryRunner.query(`ALTER TABLE "pathways_directburied" ALTER COLUMN "armor_type" TYPE character varying(100)`);
    await queryRunner.query(`UPDATE pathways_innerduct SET color = lower(color) WHERE color ~* '^[0-9a-f]{6}$'`);
    await queryRunner.query(`UPDATE pathways_innerduct SET ${appendComment(`'Colour: ' || color`)}, color = '' WHERE color <> '' AND color !~ '^[0-9a-f]{6}$'`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "color" TYPE character varying(6)`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" TYPE character varying(50) USING coalesce(position::text, '')`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" SET DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ALTER COLUMN "position" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIdTriggers(queryRunner);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" DROP CONSTRAINT "pathways_innerduct_parent_conduit_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_parent_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_cable_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_tenant_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_end_location_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_start_location_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_end_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_plannedroute" DROP CONSTRAINT "pathways_plannedroute_start_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment_lashed_with" DROP CONSTRAINT "pathways_cablesegment_lashed_with_to_cablesegment_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment_lashed_with" DROP CONSTRAINT "pathways_cablesegment_lashed_with_cablesegment_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment" DROP CONSTRAINT "pathways_cablesegment_pathway_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" DROP CONSTRAINT "pathways_pathwaylocation_location_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" DROP CONSTRAINT "pathways_pathwaylocation_site_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathwaylocation" DROP CONSTRAINT "pathways_pathwaylocation_pathway_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" DROP CONSTRAINT "pathways_conduitjunction_towards_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" DROP CONSTRAINT "pathways_conduitjunction_branch_conduit_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduitjunction" DROP CONSTRAINT "pathways_conduitjunction_trunk_conduit_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP CONSTRAINT "pathways_conduit_end_junction_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP CONSTRAINT "pathways_conduit_start_junction_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP CONSTRAINT "pathways_conduit_conduit_bank_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_installed_by_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_tenant_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_end_location_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_start_location_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_end_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_pathway" DROP CONSTRAINT "pathways_pathway_start_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_sitegeometry" DROP CONSTRAINT "pathways_sitegeometry_structure_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "pathways_sitegeometry" DROP CONSTRAINT "pathways_sitegeometry_site_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_cablesegment_pathway_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_conduit_end_junction_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_conduit_start_junction_id_idx"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP COLUMN "end_junction_id"`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" DROP COLUMN "start_junction_id"`);
    await queryRunner.query(`ALTER TABLE "pathways_circuitgeometry" DROP COLUMN "comments"`);
    await queryRunner.query(`ALTER TABLE "pathways_circuitgeometry" DROP COLUMN "provider_reference"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_parent_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_cable_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_tenant_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_end_location_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_start_location_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_end_structure_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_plannedroute_start_structure_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_plannedroute"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_cablesegment_lashed_with_to_cablesegment_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_cablesegment_lashed_with"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathwaylocation_location_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathwaylocation_site_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathwaylocation_pathway_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_pathwaylocation"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_conduitjunction_towards_structure_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_conduitjunction_branch_conduit_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_conduitjunction_trunk_conduit_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_conduitjunction"`);
    await restoreColumns(queryRunner);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_bbox_gist"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_installed_by_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_tenant_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_end_location_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_start_location_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_end_structure_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_pathway_start_structure_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_pathway"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_sitegeometry_bbox_gist"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_sitegeometry_structure_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."pathways_sitegeometry_site_id_idx"`);
    await queryRunner.query(`DROP TABLE "pathways_sitegeometry"`);
    await queryRunner.query(`CREATE INDEX "pathways_cablesegment_pathway_idx" ON "pathways_cablesegment" USING btree ("pathway_id", "pathway_type_id") `);
    await queryRunner.query(`ALTER TABLE "pathways_cablesegment" ADD CONSTRAINT "pathways_cablesegment_pathway_type_id_fkey" FOREIGN KEY ("pathway_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_conduit" ADD CONSTRAINT "pathways_conduit_conduit_bank_id_fkey" FOREIGN KEY ("conduit_bank_id") REFERENCES "pathways_conduitbank"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "pathways_innerduct" ADD CONSTRAINT "pathways_innerduct_parent_conduit_id_fkey" FOREIGN KEY ("parent_conduit_id") REFERENCES "pathways_conduit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }
}
