import { PASSWORD } from './support/api-client';
import { factories } from './support/factories';
import { PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

/**
 * A cable's ends in GraphQL as NetBox serves them: `a_terminations` and `b_terminations`, lists of
 * the terminated objects typed as `CableTerminationTerminationType`, each shown only to a caller who
 * may view it; `terminations` lists the cable's termination records.
 */
describe('GraphQL: cable terminations', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  const ids: Record<string, number> = {};

  const graphql = (client: PlatformClient, query: string) => client.post('/graphql/', { query });
  const ENDS = `
    __typename
    ... on InterfaceType { id name device { name } }
    ... on FrontPortType { id name }
    ... on RearPortType { id name }
    ... on CircuitTerminationType { id term_side circuit { cid } }
    ... on ConsolePortType { id name }
    ... on ConsoleServerPortType { id name }
    ... on PowerPortType { id name }
    ... on PowerOutletType { id name }
    ... on PowerFeedType { id name }`;

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
    const f = factories(api);
    const device = await f.device({ name: 'gql-edge' });
    const panel = await f.device({ name: 'gql-panel' });
    const [eth0, eth1] = [await f.interface({ device: device.id, name: 'eth0' }), await f.interface({ device: device.id, name: 'eth1' })];
    const [front1, front2] = [await f.frontPort({ device: panel.id, name: 'F1' }), await f.frontPort({ device: panel.id, name: 'F2' })];
    ids.eth0 = eth0.id;
    ids.eth1 = eth1.id;
    ids.front1 = front1.id;
    ids.front2 = front2.id;
    ids.lag = (
      await f.cable(
        [
          ['dcim.interface', eth0.id],
          ['dcim.interface', eth1.id],
        ],
        [
          ['dcim.frontport', front1.id],
          ['dcim.frontport', front2.id],
        ],
        { label: 'gql-two-pairs' },
      )
    ).id;
    const circuit = await f.circuit({ cid: 'GQL-CIRCUIT' });
    const termination = await api.created('/api/circuits/circuit-terminations/', {
      circuit: circuit.id,
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: device.site.id,
    });
    ids.circuitTermination = termination.id;
    const uplink = await f.interface({ device: device.id, name: 'uplink' });
    ids.uplink = uplink.id;
    ids.circuitCable = (
      await f.cable([['dcim.interface', uplink.id]], [['circuits.circuittermination', termination.id]], { label: 'gql-circuit' })
    ).id;
    const [psu, outlet] = [await f.powerPort({ device: device.id, name: 'PSU1' }), await f.powerOutlet({ device: panel.id, name: 'OUT1' })];
    ids.psu = psu.id;
    ids.outlet = outlet.id;
    ids.powerCable = (await f.cable([['dcim.powerport', psu.id]], [['dcim.poweroutlet', outlet.id]], { label: 'gql-power' })).id;
    const [consolePort, server] = [
      await f.consolePort({ device: device.id, name: 'CON' }),
      await f.consoleServerPort({ device: panel.id, name: 'CS1' }),
    ];
    ids.console = consolePort.id;
    ids.server = server.id;
    ids.consoleCable = (
      await f.cable([['dcim.consoleport', consolePort.id]], [['dcim.consoleserverport', server.id]], { label: 'gql-console' })
    ).id;
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('lists each end as the terminated objects of their own types, in the order REST lists them', async () => {
    const response = await graphql(
      api,
      `{ cable_list(filters: { label__isw: "gql-" }) { id label a_terminations { ${ENDS} } b_terminations { ${ENDS} } } }`,
    );
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const byLabel = Object.fromEntries(response.body.data.cable_list.map((cable: any) => [cable.label, cable]));
    expect(byLabel['gql-two-pairs']).toEqual({
      id: String(ids.lag),
      label: 'gql-two-pairs',
      a_terminations: [
        { __typename: 'InterfaceType', id: String(ids.eth0), name: 'eth0', device: { name: 'gql-edge' } },
        { __typename: 'InterfaceType', id: String(ids.eth1), name: 'eth1', device: { name: 'gql-edge' } },
      ],
      b_terminations: [
        { __typename: 'FrontPortType', id: String(ids.front1), name: 'F1' },
        { __typename: 'FrontPortType', id: String(ids.front2), name: 'F2' },
      ],
    });
    expect(byLabel['gql-circuit'].a_terminations).toEqual([
      { __typename: 'InterfaceType', id: String(ids.uplink), name: 'uplink', device: { name: 'gql-edge' } },
    ]);
    expect(byLabel['gql-circuit'].b_terminations).toEqual([
      { __typename: 'CircuitTerminationType', id: String(ids.circuitTermination), term_side: 'A', circuit: { cid: 'GQL-CIRCUIT' } },
    ]);
    expect([byLabel['gql-power'].a_terminations, byLabel['gql-power'].b_terminations]).toEqual([
      [{ __typename: 'PowerPortType', id: String(ids.psu), name: 'PSU1' }],
      [{ __typename: 'PowerOutletType', id: String(ids.outlet), name: 'OUT1' }],
    ]);
    expect([byLabel['gql-console'].a_terminations, byLabel['gql-console'].b_terminations]).toEqual([
      [{ __typename: 'ConsolePortType', id: String(ids.console), name: 'CON' }],
      [{ __typename: 'ConsoleServerPortType', id: String(ids.server), name: 'CS1' }],
    ]);
    // The same objects, in the same order, as the REST cable's ends.
    const rest = (await api.get(`/api/dcim/cables/${ids.lag}/`)).body;
    expect(rest.a_terminations.map((end: any) => String(end.object_id))).toEqual(
      byLabel['gql-two-pairs'].a_terminations.map((end: any) => end.id),
    );
    expect(rest.b_terminations.map((end: any) => String(end.object_id))).toEqual(
      byLabel['gql-two-pairs'].b_terminations.map((end: any) => end.id),
    );
  });

  it('lists the termination records of a cable with their ends', async () => {
    const response = await graphql(
      api,
      `{ cable(id: ${ids.circuitCable}) { terminations { cable_end termination_type termination_id } } }`,
    );
    expect(response.body.data.cable.terminations).toEqual([
      { cable_end: 'A', termination_type: 'dcim.interface', termination_id: ids.uplink },
      { cable_end: 'B', termination_type: 'circuits.circuittermination', termination_id: ids.circuitTermination },
    ]);
  });

  it('leaves out the ends a caller may not view', async () => {
    const user = new PlatformClient(seeded.testApp.baseUrl, await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const permission = await api.post('/api/users/permissions/', [
      { name: 'gql cables', object_types: ['dcim.cable'], actions: ['view'], users: [seeded.w.user1.id] },
      { name: 'gql eth0', object_types: ['dcim.interface'], actions: ['view'], constraints: { name: 'eth0' }, users: [seeded.w.user1.id] },
    ]);
    expect(permission.status).toBe(201);
    const response = await graphql(user, `{ cable(id: ${ids.lag}) { a_terminations { ${ENDS} } b_terminations { ${ENDS} } } }`);
    expect(response.body.errors).toBeUndefined();
    // eth1 is not viewable (the constraint), nor any front port (no permission): both are left out.
    expect(response.body.data.cable).toEqual({
      a_terminations: [{ __typename: 'InterfaceType', id: String(ids.eth0), name: 'eth0', device: null }],
      b_terminations: [],
    });
  });
});
