import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to a credential or its user notifies `credentials_changed` on commit, with the
 * user's id (or `*`), whatever code, replica or tool makes it: each server process keeps passed
 * credential checks only while it hears these (src/common/auth/credential-cache.ts). API tokens
 * notify for the columns authentication reads, not for `last_used`, which it writes itself.
 */
export class CredentialChangeNotifications1796718412000 implements MigrationInterface {
  name = 'CredentialChangeNotifications1796718412000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // TG_ARGV[0] names the row's user id column.
    await queryRunner.query(`CREATE FUNCTION notify_user_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credentials_changed', to_jsonb(OLD) ->> TG_ARGV[0]);
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) ->> TG_ARGV[0]) IS DISTINCT FROM (to_jsonb(OLD) ->> TG_ARGV[0]) THEN
    PERFORM pg_notify('credentials_changed', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$`);
    await queryRunner.query(`CREATE FUNCTION notify_all_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credentials_changed', '*');
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER users_credentials_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_user_credentials_changed('id')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER auth_sessions_credentials_changed AFTER UPDATE OR DELETE ON auth_sessions FOR EACH ROW EXECUTE FUNCTION notify_user_credentials_changed('user_id')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER users_token_credentials_changed AFTER UPDATE OF user_id, key_digest, expires, write_enabled OR DELETE ON users_token FOR EACH ROW EXECUTE FUNCTION notify_user_credentials_changed('user_id')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER token_blocklist_credentials_changed AFTER INSERT ON token_blocklist FOR EACH STATEMENT EXECUTE FUNCTION notify_all_credentials_changed()`,
    );
    // TRUNCATE fires no row triggers.
    for (const table of ['users', 'auth_sessions', 'users_token', 'token_blocklist']) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_credentials_truncated AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_all_credentials_changed()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['users', 'auth_sessions', 'users_token', 'token_blocklist']) {
      await queryRunner.query(`DROP TRIGGER ${table}_credentials_truncated ON ${table}`);
    }
    await queryRunner.query('DROP TRIGGER token_blocklist_credentials_changed ON token_blocklist');
    await queryRunner.query('DROP TRIGGER users_token_credentials_changed ON users_token');
    await queryRunner.query('DROP TRIGGER auth_sessions_credentials_changed ON auth_sessions');
    await queryRunner.query('DROP TRIGGER users_credentials_changed ON users');
    await queryRunner.query('DROP FUNCTION notify_all_credentials_changed()');
    await queryRunner.query('DROP FUNCTION notify_user_credentials_changed()');
  }
}
