import { Injectable } from '@nestjs/common';
import { IsNumber } from 'class-validator';
import { McpTool } from 'mcp-warden';

/** The tool's input DTO: validated with the app's own class-validator. */
export class AddInput {
  @IsNumber()
  a!: number;

  @IsNumber()
  b!: number;
}

/** One provider with one `@McpTool()` method, as a consumer writes it. */
@Injectable()
export class AddTools {
  @McpTool({ description: 'Adds two numbers.', inputSchema: AddInput })
  add(args: AddInput): { sum: number } {
    return { sum: args.a + args.b };
  }
}
