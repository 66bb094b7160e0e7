import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Arguments of `tag_note`; a missing tag is asked of the user. */
export class TagNoteDto {
  @IsString()
  @MinLength(1)
  id!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  tag?: string;
}
