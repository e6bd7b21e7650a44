import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CapabilityFlagsDto } from '../../common/auth/capability-flags.dto';
import { IsDatabaseId } from '../../common/validation/integer.decorator';
import { IsOptionalNotNull } from '../../common/validation/optional.decorator';
import { ROLES } from '../../common/auth/principal';
import type { Role } from '../../common/auth/principal';
import type { UserRecord } from './user-principal';

export const MIN_PASSWORD_LENGTH = 8;
const USERNAME_PATTERN = /^[A-Za-z0-9_.@+-]+$/;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateUserDto extends CapabilityFlagsDto {
  @ApiProperty({ maxLength: 150, pattern: USERNAME_PATTERN.source })
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(150)
  @Matches(USERNAME_PATTERN, { message: 'username may contain only letters, digits and _ . @ + -' })
  username: string;

  @ApiProperty({ format: 'email' })
  @Transform(trim)
  @IsString()
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, format: 'password' })
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(4096)
  password: string;

  @ApiPropertyOptional({ enum: ROLES, default: 'user' })
  @IsOptionalNotNull()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsDatabaseId()
  organization_id?: number | null;
}

export class UpdateUserDto extends CapabilityFlagsDto {
  @ApiPropertyOptional({ format: 'email' })
  @IsOptionalNotNull()
  @Transform(trim)
  @IsString()
  @IsEmail()
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ minLength: MIN_PASSWORD_LENGTH, format: 'password' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(4096)
  password?: string;

  @ApiPropertyOptional({ enum: ROLES })
  @IsOptionalNotNull()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'null removes the user from its organization' })
  @IsOptional()
  @IsDatabaseId()
  organization_id?: number | null;
}

export class UserDto {
  @ApiProperty()
  id: number;

  @ApiProperty()
  username: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty()
  is_active: boolean;

  @ApiProperty({ type: Number, nullable: true })
  organization_id: number | null;

  @ApiProperty()
  can_create_ca: boolean;

  @ApiProperty()
  can_create_cert: boolean;

  @ApiProperty()
  can_revoke_cert: boolean;

  @ApiProperty()
  can_export_private_key: boolean;

  @ApiProperty()
  can_delete_ca: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time' })
  updated_at: Date;

  /** The only way a user leaves the service: no hash, no invalidation timestamp. */
  static from(user: UserRecord): UserDto {
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      role: user.role,
      is_active: user.isActive,
      organization_id: user.organizationId,
      can_create_ca: user.canCreateCa,
      can_create_cert: user.canCreateCert,
      can_revoke_cert: user.canRevokeCert,
      can_export_private_key: user.canExportPrivateKey,
      can_delete_ca: user.canDeleteCa,
      created_at: user.createdAt,
      updated_at: user.updatedAt,
    };
  }
}
