import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** OAuth 2.0 password grant, form-encoded. */
export class TokenRequestDto {
  @ApiPropertyOptional({ enum: ['password'] })
  @IsOptional()
  @IsIn(['password'])
  grant_type?: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(150)
  username: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  password: string;

  @ApiPropertyOptional({ description: 'Ignored; accepted for OAuth 2.0 clients' })
  @IsOptional()
  @IsString()
  scope?: string;

  @ApiPropertyOptional({ description: 'Ignored; accepted for OAuth 2.0 clients' })
  @IsOptional()
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({ description: 'Ignored; accepted for OAuth 2.0 clients' })
  @IsOptional()
  @IsString()
  client_secret?: string;
}

export class RefreshRequestDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  refresh_token: string;
}

export class TokenResponseDto {
  @ApiProperty()
  access_token: string;

  @ApiProperty({ enum: ['bearer'] })
  token_type: 'bearer';

  @ApiProperty()
  refresh_token: string;

  @ApiProperty({ description: 'Seconds until the access token expires' })
  expires_in: number;
}
