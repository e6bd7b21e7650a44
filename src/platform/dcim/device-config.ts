import { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error';
import { ConfigTemplateError, renderConfigTemplate } from '../extras/config-templates/config-template-renderer';
import { ResourceRow } from '../framework/resource/resource-definition';
import { AfterTransaction, type ObjectSerializer } from '../framework/resource/resource-declaration';

/** A render-config request that cannot produce a configuration: 400 with the reason. */
export class ConfigRenderError extends DomainError {
  readonly kind = 'invalid';

  constructor(message: string) {
    super('config_render_failed', message);
  }
}

/**
 * NetBox's `POST /api/dcim/devices/{id}/render-config/`: the device's config template rendered in
 * the sandbox with the device's config context and its REST representation as `device`, once the request's transaction
 * has ended. The answer is `{configtemplate, content}`.
 */
export async function renderDeviceConfig(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  device: ResourceRow,
  deviceRepresentation: Record<string, unknown>,
  /** Who asks (`user:5`): the render queue's per-requester bound. */
  requester: string,
): Promise<AfterTransaction<Record<string, unknown>>> {
  const templateId = device.config_template_id as number | null;
  if (templateId === null) throw new ConfigRenderError('No config template is assigned to this device.');
  const [template] = (await manager.query('SELECT template_code FROM extras_configtemplate WHERE id = $1', [templateId])) as Array<{
    template_code: string;
  }>;
  const configtemplate = (await serializer.briefByIds(manager, 'extras.configtemplate', [templateId], baseUrl)).get(templateId) ?? null;
  return new AfterTransaction(async () => {
    try {
      // NetBox's context: the device's rendered config context, with the device itself as `device`.
      const configContext = (deviceRepresentation.config_context as Record<string, unknown> | undefined) ?? {};
      const content = await renderConfigTemplate(
        template.template_code,
        { ...configContext, device: deviceRepresentation },
        {},
        { requester },
      );
      return { configtemplate, content };
    } catch (error) {
      if (error instanceof ConfigTemplateError) throw new ConfigRenderError(error.message);
      throw error;
    }
  });
}
