import { withEffectiveCapabilities } from './command-options';

describe('withEffectiveCapabilities', () => {
  const flags = {
    can_create_ca: false,
    can_create_cert: true,
    can_revoke_cert: false,
    can_export_private_key: false,
    can_delete_ca: false,
  };

  it("shows what the server's access policy grants where the role, not the flag, decides", () => {
    expect(withEffectiveCapabilities({ role: 'superuser', organization_id: null, ...flags })).toMatchObject({
      can_create_ca: 'true (superusers bypass capability flags; flag: false)',
      can_create_cert: 'true (superusers bypass capability flags)',
    });
    expect(withEffectiveCapabilities({ role: 'admin', organization_id: 3, ...flags })).toMatchObject({
      can_delete_ca: 'true (admins have every capability in their organization; flag: false)',
    });
    expect(withEffectiveCapabilities({ role: 'user', organization_id: null, ...flags })).toMatchObject({
      can_create_ca: 'false (no organization)',
      can_create_cert: 'false (no organization; flag: true)',
    });
  });

  it('leaves a user of an organization as stored: its flags decide', () => {
    const user = { role: 'user', organization_id: 3, ...flags };
    expect(withEffectiveCapabilities(user)).toEqual(user);
  });
});
