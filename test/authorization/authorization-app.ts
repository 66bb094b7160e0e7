import {
  Injectable,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { map } from 'rxjs';
import {
  Authorizers,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpToolError,
  type Authorizer,
  type AuthorizerContext,
} from '../../src/index.js';

/* ------------------------------------------------------------------ helpers */

/** An authorizer that records every call and answers with `decide` (allow by default). */
export function recorder(decide: Authorizer = Authorizers.allowAll()) {
  const calls: { name: string; args: Record<string, unknown>; context: AuthorizerContext }[] = [];
  const authorizer: Authorizer = (name, args, context) => {
    calls.push({ name, args, context });
    return decide(name, args, context);
  };
  return { authorizer, calls };
}

export function denial(tool: string, decision: 'deny' | 'ask', detail: string) {
  const body = { error: 'authorization_required', tool, decision, detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: true,
  };
}

export const NOTE_INPUT = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
};

/* ----------------------------------------------------------------- fixtures */

@Injectable()
export class NoteTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Read a note', input: NOTE_INPUT })
  read_note({ id }: { id: string }) {
    this.ran.push('read_note');
    return `note ${id}`;
  }

  @McpTool({ description: 'Archive a note', input: NOTE_INPUT })
  archive_note({ id }: { id: string }) {
    this.ran.push('archive_note');
    return `archived ${id}`;
  }

  @McpTool({ description: 'Fails with an internal error', input: { type: 'object' } })
  explode() {
    this.ran.push('explode');
    throw new Error('secret database password hunter2');
  }

  @McpTool({ description: 'Fails with a safe error', input: { type: 'object' } })
  refuse() {
    this.ran.push('refuse');
    throw new McpToolError('No note with id 7');
  }
}

@Injectable()
export class ReadFixtures {
  @McpResource({ uri: 'notes://index', mimeType: 'text/plain' })
  index() {
    return 'index';
  }

  @McpResourceTemplate({ uriTemplate: 'notes://{id}', complete: { id: () => ['a', 'b'] } })
  note(_uri: string, { id }: Record<string, string>) {
    return `note ${id}`;
  }

  @McpPrompt({ description: 'Summarise a topic', arguments: [{ name: 'topic', required: true }] })
  summarise({ topic }: Record<string, string>) {
    return [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }];
  }

  @McpTool({ description: 'Search', input: { type: 'object' } })
  search() {
    return 'found';
  }
}

@Injectable()
export class DestructiveTools {
  @McpTool({
    description: 'Deletes everything',
    input: { type: 'object' },
    annotations: { destructiveHint: true },
  })
  wipe_all() {
    return 'wiped';
  }
}

@Injectable()
export class FlaggedSensitiveTools {
  @McpTool({ description: 'Reads secrets', input: { type: 'object' }, sensitive: true })
  read_secrets() {
    return 'secrets';
  }
}

@Injectable()
export class ContradictoryHintTools {
  @McpTool({
    description: 'Claims read-only but destroys',
    input: { type: 'object' },
    annotations: { readOnlyHint: true, destructiveHint: true },
    sensitive: false,
  })
  sneaky_delete() {
    return 'gone';
  }

  @McpTool({
    description: 'Not destructive but sensitive',
    input: { type: 'object' },
    annotations: { destructiveHint: false },
    sensitive: true,
  })
  quiet_secret() {
    return 'psst';
  }
}

export const guardLog: string[] = [];
/** Whether RecordingGuard lets a call through; an object so a spec can set it through the import. */
export const guardSetting = { allows: true };

@Injectable()
export class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardLog.push(`guard:${context.getType()}`);
    return guardSetting.allows;
  }
}

export const interceptorLog: string[] = [];

@Injectable()
export class WrappingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    interceptorLog.push(`before:${context.getType()}`);
    return next.handle().pipe(
      map((value) => {
        interceptorLog.push('after');
        return `wrapped(${value})`;
      }),
    );
  }
}

@Injectable()
export class EnhancedTools {
  @McpTool({ description: 'Guarded tool', input: { type: 'object' } })
  @UseGuards(RecordingGuard)
  guarded() {
    guardLog.push('handler');
    return 'guarded ran';
  }

  @McpTool({ description: 'Intercepted tool', input: { type: 'object' } })
  @UseInterceptors(WrappingInterceptor)
  intercepted() {
    interceptorLog.push('handler');
    return 'inner';
  }
}
