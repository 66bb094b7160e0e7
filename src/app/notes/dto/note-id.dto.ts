import { IsString, MinLength } from 'class-validator';

/** Arguments of the tools that name one note. */
export class NoteIdDto {
  @IsString()
  @MinLength(1)
  id!: string;
}
