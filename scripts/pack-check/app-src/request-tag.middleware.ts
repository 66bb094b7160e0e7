import { Injectable, type NestMiddleware } from '@nestjs/common';

/** An app middleware, as teams have for every route: it tags each response. */
@Injectable()
export class RequestTagMiddleware implements NestMiddleware {
  use(
    _req: unknown,
    res: { setHeader(name: string, value: string): void },
    next: () => void,
  ): void {
    res.setHeader('x-request-tag', 'pack-check');
    next();
  }
}
