import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { PlatformApi } from '../src/common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../src/common/auth/current-principal.decorator';
import type { Principal } from '../src/common/auth/principal';
import { ApiClient, ApiResponse, PASSWORD, seedIdentities } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { startTestApp, TestApp } from './support/test-app';

const SAFE = '/api/probe/safe/';
const UNSAFE = '/api/probe/unsafe/';

/** Two platform POST routes that differ only in `safePost`; each answers with the caller it was given. */
@Controller('api/probe')
class SafePostProbeController {
  @Post('safe')
  @HttpCode(200)
  @PlatformApi({ safePost: true })
  safe(@CurrentPrincipal() principal: Principal) {
    return { caller: principal.name };
  }

  @Post('unsafe')
  @PlatformApi()
  unsafe(@CurrentPrincipal() principal: Principal) {
    return { caller: principal.name };
  }
}

@Module({ controllers: [SafePostProbeController] })
class SafePostProbeModule {}

describe('read-only POST routes on the platform API (safePost)', () => {
  let testApp: TestApp;
  let readOnly: PlatformClient;
  let writable: PlatformClient;
  let anonymous: PlatformClient;

  beforeAll(async () => {
    // Seeding logs in once per user, more than the default login rate limit allows.
    testApp = await startTestApp({
      env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute' },
      extraModules: [SafePostProbeModule],
    });
    const api = new ApiClient(testApp.baseUrl);
    const { user1 } = await seedIdentities(api);
    anonymous = new PlatformClient(testApp.baseUrl);
    readOnly = anonymous.as(await provisionToken(api, user1.username, PASSWORD, { write_enabled: false }));
    writable = anonymous.as(await provisionToken(api, user1.username, PASSWORD, { write_enabled: true }));
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** NetBox's refusal: 403 with `{"detail": …}` and no authentication challenge. */
  function expectDenied(response: ApiResponse, detail: string): void {
    expect({ status: response.status, body: response.body, challenge: response.headers.get('www-authenticate') }).toEqual({
      status: 403,
      body: { detail },
      challenge: null,
    });
  }

  it('lets a read-only token call a safePost route', async () => {
    const response = await readOnly.post(SAFE, { query: 'anything' });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { caller: 'user1' } });
  });

  it('refuses a read-only token on an ordinary platform POST', async () => {
    expectDenied(await readOnly.post(UNSAFE, { query: 'anything' }), 'This token does not have write permission.');
  });

  it('lets a write-enabled token call both', async () => {
    const safe = await writable.post(SAFE, {});
    const unsafe = await writable.post(UNSAFE, {});
    expect([safe.status, safe.body, unsafe.status, unsafe.body]).toEqual([200, { caller: 'user1' }, 201, { caller: 'user1' }]);
  });

  it.each([SAFE, UNSAFE])('refuses %s without credentials', async (path) => {
    expectDenied(await anonymous.post(path, {}), 'Authentication credentials were not provided.');
  });

  it.each([SAFE, UNSAFE])('refuses %s with an unknown token', async (path) => {
    expectDenied(await anonymous.as('0'.repeat(40)).post(path, {}), 'Invalid token');
  });
});
