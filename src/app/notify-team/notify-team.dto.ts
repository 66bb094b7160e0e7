import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Arguments of `notify_team`: the note, and a few words for the team. */
export class NotifyTeamDto {
  @IsString()
  @MinLength(1)
  id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  message?: string;
}
