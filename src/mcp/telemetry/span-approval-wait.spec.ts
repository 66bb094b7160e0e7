import { SpanStatusCode } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { SpanApprovalWait } from './span-approval-wait.js';

/* A real SDK tracer, used directly (nothing registered globally). */
function waitSpan() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let released = 0;
  const wait = new SpanApprovalWait(provider.getTracer('t').startSpan('elicitation/create'), () => {
    released++;
  });
  return { wait, exporter, released: () => released };
}

describe('an approval wait span', () => {
  it('ends once, with the outcome; a wait that got no answer is an error of its own type', () => {
    const { wait, exporter, released } = waitSpan();
    wait.end(false, 'elicitation timed out');
    wait.end(true, 'user approved');
    expect(released()).toBe(1);
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span.attributes).toEqual({
      'mcp_warden.approval.outcome': 'elicitation timed out',
      'mcp_warden.decision': 'deny',
      'error.type': 'timeout',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'elicitation timed out' });
  });

  it('maps each failure to a low-cardinality error type, and a refusal to none', () => {
    const types = [
      'connection closed',
      'elicitation failed',
      'call cancelled',
      'user cancelled',
    ].map((detail) => {
      const { wait, exporter } = waitSpan();
      wait.end(false, detail);
      return exporter.getFinishedSpans()[0].attributes['error.type'];
    });
    expect(types).toEqual(['connection_closed', 'elicitation_failed', 'cancelled', undefined]);
  });

  it('carries its trace context only through a configured propagator', () => {
    const { wait } = waitSpan();
    // No propagator registered here: the question goes out unchanged.
    const params = { message: 'ok?' };
    expect(wait.carrying(params)).toBe(params);
  });
});
