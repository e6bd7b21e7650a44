import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsOptionalNotNull } from '../validation/optional.decorator';

/** The five capability flags as optional request fields (users and service accounts). */
export class CapabilityFlagsDto {
  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  can_create_ca?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  can_create_cert?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  can_revoke_cert?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  can_export_private_key?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  can_delete_ca?: boolean;
}
