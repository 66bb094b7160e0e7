import { IsString, MinLength } from 'class-validator';

/** Arguments of `delete_note`. */
export class DeleteNoteDto {
  @IsString()
  @MinLength(1)
  id!: string;
}
