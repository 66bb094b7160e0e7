import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Arguments of `open_ticket`. */
export class OpenTicketDto {
  @IsString()
  @MinLength(3)
  @MaxLength(200)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  body?: string;
}
