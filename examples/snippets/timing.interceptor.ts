import {
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { tap, type Observable } from 'rxjs';
import { McpExecutionContext } from '../../src/index.js';

/** Logs how long each tool, resource or prompt method took; other routes pass through. */
@Injectable()
export class TimingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Timing');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'mcp') return next.handle();
    const { connId, requestId } = McpExecutionContext.create(context).getContext();
    const started = performance.now();
    return next.handle().pipe(
      tap(() => {
        const ms = (performance.now() - started).toFixed(1);
        this.logger.log(`${context.getHandler().name} ${connId}#${String(requestId)} ${ms} ms`);
      }),
    );
  }
}
