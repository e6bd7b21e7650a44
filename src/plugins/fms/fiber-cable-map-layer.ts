import { publishMapLayer } from '../../platform/plugin-api';
import { FiberCableResource } from './fiber-cables.resources';

/** Fiber cables on a map plugin's map (pathways: `geo/external/fiber-cables/`), drawn along the pathways their cable is routed through. */
publishMapLayer({
  name: 'fiber-cables',
  source: FiberCableResource,
  geometry: { field: 'cable', via: 'cable' },
  featureFields: ['cable', 'fiber_cable_type', 'serial_number', 'install_date'],
  colorField: 'fiber_cable_type',
});
