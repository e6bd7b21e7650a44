import type { EntityManager } from 'typeorm';
import { ObjectEvent, ObjectEventSink, ObjectEventSubscriber } from './object-events';
import type { ResourceDefinition } from './resource-definition';

const event = (objectType: string): ObjectEvent => ({
  event: 'created',
  definition: { objectType } as ResourceDefinition,
  objectId: 1,
  data: async () => ({}),
  prechange: null,
  postchange: {},
  username: 'root',
  requestId: '',
  timestamp: new Date(),
});

describe('ObjectEventSink', () => {
  const manager = {} as EntityManager;

  it('hands each change to every subscriber that wants its object type, in order', async () => {
    const seen: string[] = [];
    const subscriber = (name: string, objectTypes?: string[]): ObjectEventSubscriber => ({
      name,
      objectTypes,
      handle: async (_manager, received) => void seen.push(`${name}:${received.definition.objectType}`),
    });
    const sink = new ObjectEventSink([subscriber('rules'), subscriber('sites', ['dcim.site']), subscriber('devices', ['dcim.device'])]);
    await sink.publish(manager, event('dcim.site'));
    await sink.publish(manager, event('dcim.device'));
    expect(seen).toEqual(['rules:dcim.site', 'sites:dcim.site', 'rules:dcim.device', 'devices:dcim.device']);
  });

  it('stops at a subscriber that throws, so the change is refused', async () => {
    const later = jest.fn(async () => undefined);
    const sink = new ObjectEventSink([
      { name: 'refuser', handle: async () => Promise.reject(new Error('no')) },
      { name: 'later', handle: later },
    ]);
    await expect(sink.publish(manager, event('dcim.site'))).rejects.toThrow('no');
    expect(later).not.toHaveBeenCalled();
  });
});
