import { ApiProperty } from '@nestjs/swagger';

export class HealthStatusDto {
  @ApiProperty({ enum: ['ok', 'unavailable'], example: 'ok' })
  status: 'ok' | 'unavailable';
}
