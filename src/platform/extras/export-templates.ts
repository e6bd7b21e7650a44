import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error';
import { ConfigTemplateError, renderConfigTemplate } from './config-templates/config-template-renderer';

/** An export that cannot be rendered (a template error, a timeout, too much output): 400 with the reason. */
export class ExportRenderError extends DomainError {
  readonly kind = 'invalid';

  constructor(message: string) {
    super('export_render_failed', message);
  }
}

/** A rendered export: the body and how it is sent. */
export class ExportedFile {
  constructor(
    readonly content: string,
    readonly mimeType: string,
    /** `attachment; filename="…"`, or null to send it inline. */
    readonly disposition: string | null,
  ) {}
}

export interface ExportTemplateRow {
  id: number;
  template_code: string;
  mime_type: string;
  file_name: string;
  file_extension: string;
  as_attachment: boolean;
}

/** The export template of that name for an object type (`dcim.device`), if one exists. */
export async function findExportTemplate(manager: EntityManager, objectType: string, name: string): Promise<ExportTemplateRow | undefined> {
  const [appLabel, model] = objectType.split('.');
  const [template] = (await manager.query(
    `SELECT t.id, t.template_code, t.mime_type, t.file_name, t.file_extension, t.as_attachment
       FROM extras_exporttemplate t
       JOIN extras_exporttemplate_object_types j ON j.exporttemplate_id = t.id
       JOIN core_objecttype ot ON ot.id = j.objecttype_id
      WHERE ot.app_label = $1 AND ot.model = $2 AND t.name = $3
      ORDER BY t.id LIMIT 1`,
    [appLabel, model, name],
  )) as ExportTemplateRow[];
  return template;
}

/**
 * NetBox's `render_to_response`: the template rendered in the sandbox with the objects' REST
 * representations as `queryset`; CRLF line ends become LF; sent as `mime_type` (default
 * `text/plain; charset=utf-8`), as an attachment named `file_name` (default `netbox_<list path>`)
 * plus `.file_extension` unless `as_attachment` is false.
 */
export async function renderExport(
  template: ExportTemplateRow,
  objects: ReadonlyArray<Record<string, unknown>>,
  listName: string,
  requester: string,
): Promise<ExportedFile> {
  let content: string;
  try {
    content = await renderConfigTemplate(template.template_code, { queryset: objects }, {}, { requester });
  } catch (error) {
    if (error instanceof ConfigTemplateError) throw new ExportRenderError(error.message);
    throw error;
  }
  const extension = template.file_extension ? `.${template.file_extension}` : '';
  const fileName = (template.file_name || `netbox_${listName.replace(/-/g, '_')}`).replace(/["\\\r\n]/g, '_');
  return new ExportedFile(
    content.replace(/\r\n/g, '\n'),
    template.mime_type || 'text/plain; charset=utf-8',
    template.as_attachment ? `attachment; filename="${fileName}${extension}"` : null,
  );
}
