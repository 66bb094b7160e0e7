import type { McpAuditChainState } from '../../audit/audit-view.interface.js';
import { html, layout, type Html } from './console-html.js';
import { banner } from './console-page.renderer.js';
import type { ConsoleSession } from './console-session.service.js';

/** One record as the Audit page shows it. */
export interface ConsoleAuditRow {
  readonly seq: number;
  readonly id: string;
  readonly time: string;
  readonly kind: string;
  readonly seam: string;
  readonly principal: string;
  readonly name: string;
  /** The decision, or the outcome of a run (with its duration). */
  readonly result: string;
  readonly detail: string;
  readonly approver: string;
  /** The decision the record belongs to: its own id, or the one it names in `of`. */
  readonly call?: string;
}

/** What the Audit page shows: the filtered timeline, one call's story, the chain's state. */
export interface ConsoleAuditView {
  readonly rows: readonly ConsoleAuditRow[];
  readonly total: number;
  readonly page: number;
  readonly pages: number;
  readonly filters: Readonly<Record<'principal' | 'tool' | 'decision' | 'kind', string>>;
  /** `?call=<id>`: that call's records, in chain order. */
  readonly story?: { readonly id: string; readonly rows: readonly ConsoleAuditRow[] };
  readonly state?: McpAuditChainState;
}

function rowsTable(rows: readonly ConsoleAuditRow[], caption: string, base: string): Html {
  return html`<div class="table">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">When</th>
          <th scope="col">Kind</th>
          <th scope="col">Seam</th>
          <th scope="col">Caller</th>
          <th scope="col">Tool or method</th>
          <th scope="col">Result</th>
          <th scope="col">Approver</th>
          <th scope="col">Detail</th>
          <th scope="col">Call</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr data-kind="${row.kind}">
              <td>${row.seq}</td>
              <td><time datetime="${row.time}">${row.time}</time></td>
              <td>${row.kind}</td>
              <td>${row.seam}</td>
              <td>${row.principal}</td>
              <td>${row.name}</td>
              <td>${row.result}</td>
              <td>${row.approver}</td>
              <td>${row.detail}</td>
              <td>${row.call ? html`<a href="${base}/audit?call=${row.call}">story</a>` : ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function chainState(state: McpAuditChainState | undefined): Html {
  if (!state)
    return html`<p class="empty">This server keeps no audit records (no audit.sinks).</p>`;
  const recent = state.recent;
  const verified =
    recent.breaks.length === 0
      ? `intact: the last ${recent.records} records chain, ${recent.verifiedCheckpoints} of ${recent.checkpoints} checkpoints verified`
      : `BROKEN: ${recent.breaks.map((found) => `${found.kind} at ${found.where}`).join('; ')}`;
  return html`<section aria-labelledby="chain-title" class="chain">
    <h2 id="chain-title">Chain</h2>
    <dl>
      <dt>Instance</dt>
      <dd id="chain-instance">${state.instance}</dd>
      <dt>Records</dt>
      <dd id="chain-seq">${state.seq}</dd>
      <dt>Signed</dt>
      <dd>
        ${state.signed ? `yes, last checkpoint at record ${state.lastCheckpoint ?? '—'}` : 'no (no audit.signing)'}
      </dd>
      <dt>Recent records</dt>
      <dd id="chain-verified" data-intact="${recent.breaks.length === 0 ? 'yes' : 'no'}">
        ${verified}
      </dd>
      <dt>Sinks</dt>
      <dd>
        ${state.sinks.map(
          (sink) =>
            html`<span class="sink"
              >${sink.name}: ${sink.healthy ? 'writing' : 'failing'}, kept to record
              ${sink.keptSeq}, ${sink.pending} queued</span
            > `,
        )}
      </dd>
    </dl>
    <p>The full log is checked offline with <code>mcp-warden audit verify</code>.</p>
  </section>`;
}

/** The Audit page: the chain's state, the timeline of this instance's recent records, one call's story. */
export function renderAuditPage(
  base: string,
  session: ConsoleSession,
  view: ConsoleAuditView,
): string {
  const field = (name: keyof ConsoleAuditView['filters'], label: string) =>
    html`<label
      >${label}
      <input name="${name}" value="${view.filters[name]}" maxlength="200" autocomplete="off"
    /></label>`;
  const query = (page: number) => {
    const params = new URLSearchParams({ ...view.filters, page: String(page) });
    return `${base}/audit?${params.toString()}`;
  };
  const body = html`<a class="skip" href="#main">Skip to the audit records</a>
    ${banner(base, session, 'audit')}
    <main id="main" class="audit">
      ${chainState(view.state)}
      ${
        view.story
          ? html`<section aria-labelledby="story-title" class="story">
              <h2 id="story-title">One call</h2>
              ${rowsTable(view.story.rows, `Decision ${view.story.id}, its approval steps and its outcome`, base)}
              <p><a href="${base}/audit">Back to the timeline</a></p>
            </section>`
          : ''
      }
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <form class="filters" method="get" action="${base}/audit">
          ${field('principal', 'Caller')} ${field('tool', 'Tool or method')}
          ${field('decision', 'Decision')} ${field('kind', 'Kind')}
          <button type="submit">Filter</button>
        </form>
        ${
          view.rows.length === 0
            ? html`<p class="empty">No record matches.</p>`
            : rowsTable(view.rows, `${view.total} matching records, newest first`, base)
        }
        <nav class="pager" aria-label="Pages">
          ${view.page > 1 ? html`<a id="prev" href="${query(view.page - 1)}">Previous page</a>` : ''}
          <span id="page">Page ${view.page} of ${Math.max(1, view.pages)}</span>
          ${view.page < view.pages ? html`<a id="next" href="${query(view.page + 1)}">Next page</a>` : ''}
        </nav>
      </section>
    </main>`;
  return layout(base, 'Approvals — audit', body);
}
