import { Writable } from 'node:stream';
import { createRootLogger } from './root-logger';
import { NestPinoLogger } from './nest-pino-logger';

function capture(level: 'info' | 'debug'): { nest: NestPinoLogger; entries: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { nest: new NestPinoLogger(createRootLogger(level, sink)), entries: () => lines.map((line) => JSON.parse(line)) };
}

describe('NestPinoLogger', () => {
  it("logs Nest's start-up narration (route mapping, module initialisation) at debug, its other messages at info", () => {
    const info = capture('info');
    info.nest.log('Mapped {/api/dcim/sites/, GET} route', 'RouterExplorer');
    info.nest.log('AppModule dependencies initialized', 'InstanceLoader');
    info.nest.log('SitesController {/api/dcim/sites/}:', 'RoutesResolver');
    info.nest.log('Nest application successfully started', 'NestApplication');
    info.nest.log('something an operator should see', 'SomeService');
    expect(info.entries().map((entry) => [entry.level, entry.msg])).toEqual([['info', 'something an operator should see']]);

    const debug = capture('debug');
    debug.nest.log('Mapped {/api/dcim/sites/, GET} route', 'RouterExplorer');
    expect(debug.entries()).toMatchObject([{ level: 'debug', context: 'RouterExplorer', msg: 'Mapped {/api/dcim/sites/, GET} route' }]);
  });
});
