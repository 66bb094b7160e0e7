import { aborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { McpTool, type McpToolContext } from '../../../src/index.js';
import { deferred, type Deferred } from '../../support/deferred.js';

/** The hostile tools: a DTO tool, a JSON Schema tool that takes anything, and a holder. */
export const hostileRuns = { dto: 0, any: 0 };

export class HostileNoteDto {
  @IsString()
  text!: string;

  @IsOptional()
  @IsString()
  note?: string;
}

@Injectable()
export class HostileTools {
  /** Released by the spec once every message of a case has been dispatched. */
  static gate: Deferred<void> = deferred<void>();

  @McpTool({ name: 'dto_echo', description: 'Echo (DTO arguments)', inputSchema: HostileNoteDto })
  dto({ text }: HostileNoteDto) {
    hostileRuns.dto++;
    return text;
  }

  @McpTool({ name: 'any_object', description: 'Takes any object', inputSchema: { type: 'object' } })
  any() {
    hostileRuns.any++;
    return 'ran';
  }

  @McpTool({
    name: 'hold',
    description: 'Holds until the case releases it',
    inputSchema: { type: 'object' },
  })
  async hold(_args: object, ctx: McpToolContext) {
    await Promise.race([HostileTools.gate.promise, aborted(ctx.signal, ctx.signal)]);
    return 'held';
  }
}

/** The tools a hostile call is sent to (the fuzz app's `echo` and `explode` are there too). */
export const HOSTILE_TOOL_NAMES = [
  'dto_echo',
  'any_object',
  'echo',
  'explode',
  'denied_counter',
  'no_such_tool',
] as const;
