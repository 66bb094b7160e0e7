import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';

/** A tool both servers serve: it names them, since its module imports neither. */
@Injectable()
export class StatusTools {
  @McpTool({
    server: ['admin', 'partner'],
    description: 'Say whether the shop is up',
    annotations: { readOnlyHint: true },
  })
  shop_status() {
    return 'the shop is up';
  }
}
