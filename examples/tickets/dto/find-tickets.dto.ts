import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Arguments of `find_tickets`: the JSON Schema in `tools/list` is derived from these rules. */
export class FindTicketsDto {
  /** Text to look for in titles and bodies. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  text?: string;

  @IsOptional()
  @IsIn(['open', 'closed'])
  status?: 'open' | 'closed';

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}
