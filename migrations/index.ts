import { DevicePrimaryAddresses1796693133512 } from './1796693133512-DevicePrimaryAddresses';
import { Owners1796692744725 } from './1796692744725-Owners';
import { ConfigContextProfiles1796692061331 } from './1796692061331-ConfigContextProfiles';
import { QinqVlans1796690975126 } from './1796690975126-QinqVlans';
import { VlanTranslationPolicies1796689955579 } from './1796689955579-VlanTranslationPolicies';
import { VmInterfacePrimaryMacAddress1796693186529 } from './1796693186529-VmInterfacePrimaryMacAddress';
import { DeviceCluster1796692283516 } from './1796692283516-DeviceCluster';
import { ModuleBayTemplatesOnModuleTypes1796691279924 } from './1796691279924-ModuleBayTemplatesOnModuleTypes';
import { DeviceBays1796689989235 } from './1796689989235-DeviceBays';
import { AcmeServer1796677295647 } from './1796677295647-AcmeServer';
import { VpnModels1796677306856 } from './1796677306856-VpnModels';
import { InventoryBoundIssuance1796680000000 } from './1796680000000-InventoryBoundIssuance';
import { CredentialChangeNotifications1796718412000 } from './1796718412000-CredentialChangeNotifications';
import { AcmeRenewalInfo1796718500000 } from './1796718500000-AcmeRenewalInfo';
import { DcimRacksPowerConsoleCablePaths1796665800013 } from './1796665800013-DcimRacksPowerConsoleCablePaths';
import { NetboxCoreModels1796669138511 } from './1796669138511-NetboxCoreModels';
import { WebhookOwners1795900001100 } from './1795900001100-WebhookOwners';
import { CaOcspResponder1796000000000 } from './1796000000000-CaOcspResponder';
import { CrlRevocationCount1795700000000 } from './1795700000000-CrlRevocationCount';
import { CaCertificateType1795600289278 } from './1795600289278-CaCertificateType';
import { FreeTextRevocationReason1795598661236 } from './1795598661236-FreeTextRevocationReason';
import { CableTerminationConnector1795256838820 } from './1795256838820-CableTerminationConnector';
import { CircuitTerminationTargets1795255650887 } from './1795255650887-CircuitTerminationTargets';
import { CoreModels1795254918716 } from './1795254918716-CoreModels';
import { PlatformFramework1795252495044 } from './1795252495044-PlatformFramework';
import { Jobs1795250043106 } from './1795250043106-Jobs';
import { ServiceAccounts1795247433713 } from './1795247433713-ServiceAccounts';
import { Pki1795245880062 } from './1795245880062-Pki';
import { Identity1795245292124 } from './1795245292124-Identity';
import type { MigrationClass } from '../src/common/database/data-source-options';

/**
 * The platform's own migrations, oldest first; a unit test checks that every file in this folder
 * is listed.
 */
export const CORE_MIGRATIONS: MigrationClass[] = [
  Identity1795245292124,
  Pki1795245880062,
  ServiceAccounts1795247433713,
  Jobs1795250043106,
  PlatformFramework1795252495044,
  CoreModels1795254918716,
  CircuitTerminationTargets1795255650887,
  CableTerminationConnector1795256838820,
  FreeTextRevocationReason1795598661236,
  CaCertificateType1795600289278,
  CrlRevocationCount1795700000000,
  WebhookOwners1795900001100,
  CaOcspResponder1796000000000,
  DcimRacksPowerConsoleCablePaths1796665800013,
  NetboxCoreModels1796669138511,
  AcmeServer1796677295647,
  VpnModels1796677306856,
  InventoryBoundIssuance1796680000000,
  VlanTranslationPolicies1796689955579,
  DeviceBays1796689989235,
  QinqVlans1796690975126,
  ModuleBayTemplatesOnModuleTypes1796691279924,
  ConfigContextProfiles1796692061331,
  DeviceCluster1796692283516,
  Owners1796692744725,
  DevicePrimaryAddresses1796693133512,
  VmInterfacePrimaryMacAddress1796693186529,
  CredentialChangeNotifications1796718412000,
  AcmeRenewalInfo1796718500000,
];

/**
 * Every migration TypeORM runs: the platform's and those of the given plugins, by timestamp. The
 * entry points pass every available plugin, mounted or not (a plugin's tables exist whatever PLUGINS
 * says). This list (not a file glob) is what TypeORM runs, so the compiled app, the migration command
 * and jest all load the same classes.
 */
export function migrationsOf(plugins: ReadonlyArray<{ readonly migrations?: readonly MigrationClass[] }>): MigrationClass[] {
  return [...CORE_MIGRATIONS, ...plugins.flatMap((plugin) => [...(plugin.migrations ?? [])])].sort(
    (a, b) => migrationTimestamp(a) - migrationTimestamp(b),
  );
}

function migrationTimestamp(migration: MigrationClass): number {
  return Number(/(\d{13})$/.exec(migration.name)?.[1]);
}
