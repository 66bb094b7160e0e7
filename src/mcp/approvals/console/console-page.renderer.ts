import type { ConsoleAskView } from './console-ask.view.js';
import type { ConsoleHistoryEntry } from './console-history.ring.js';
import { html, layout, type Html } from './console-html.js';
import type { ConsoleSession } from './console-session.service.js';
import type { McpConsoleTaskView } from './console-tasks.interface.js';

/** One page of pending asks as the console renders it. */
export interface ConsoleAsksPage {
  readonly asks: readonly ConsoleAskView[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly cursor?: string;
  /** One ask's own page: no paging, no other asks added live. */
  readonly single?: boolean;
  /** The tasks still running, shown beside the asks (docs/tasks.md); absent on one ask's page. */
  readonly tasks?: readonly McpConsoleTaskView[];
}

/** The header every signed-in page shares: where you are, who you are, and signing out. */
export function banner(
  base: string,
  session: ConsoleSession,
  current: 'pending' | 'history' | 'audit',
): Html {
  const link = (href: string, label: string, here: boolean) =>
    html`<a href="${href}" ${here ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<header class="banner">
    <h1>Approvals</h1>
    <nav aria-label="Console">
      ${link(base, 'Pending', current === 'pending')}
      ${link(`${base}/history`, 'History', current === 'history')}
      ${link(`${base}/audit`, 'Audit', current === 'audit')}
    </nav>
    <form class="signout" method="post" action="${base}/logout" enctype="text/plain">
      <span>Signed in as <strong>${session.operator.subject}</strong></span>
      <input type="hidden" name="csrf" value="${session.csrf}" />
      <button type="submit">Sign out</button>
    </form>
  </header>`;
}

/** One ask's card; the script clones the template version (`ask === undefined`) for asks it receives. */
export function askCard(ask?: ConsoleAskView): Html {
  const id = ask?.id ?? '';
  return html`<li class="ask" data-id="${id}" data-expires="${ask?.expiresAt ?? ''}">
    <article aria-labelledby="t-${id}">
      <h2 id="t-${id}" tabindex="-1" class="tool">${ask?.tool}</h2>
      <p class="prompt">${ask?.prompt}</p>
      <dl>
        <dt>Caller</dt>
        <dd class="caller">${ask?.caller}</dd>
        <dt>Arguments</dt>
        <dd><pre class="preview">${ask?.preview}</pre></dd>
        <dt>Policy</dt>
        <dd class="policies">${ask?.policies || '—'}</dd>
        <dt>Time left</dt>
        <dd>
          <span class="left" role="timer" aria-live="off"
            >${ask ? remaining(ask.expiresAt) : ''}</span
          >
        </dd>
      </dl>
      <div class="actions">
        <button type="button" class="approve">Approve</button>
        <label for="r-${id}">Reason for denying</label>
        <input id="r-${id}" class="reason" name="reason" maxlength="500" autocomplete="off" />
        <button type="button" class="deny">Deny</button>
      </div>
      <p class="problem" role="alert" hidden></p>
    </article>
  </li>`;
}

/** The pending asks, one page of them, live once the script runs. */
export function renderAsksPage(
  base: string,
  session: ConsoleSession,
  page: ConsoleAsksPage,
): string {
  const first = page.cursor === undefined;
  const body = html`<a class="skip" href="#main">Skip to the pending asks</a>
    ${banner(base, session, 'pending')}
    <main id="main" class="desk">
      <div class="waiting">
        <p id="status" class="status" role="status" aria-live="polite"></p>
        <h2 class="count"><span id="total">${page.total}</span> pending</h2>
        <ol id="asks" class="asks" aria-label="Pending asks on this page">
          ${page.asks.map((ask) => askCard(ask))}
        </ol>
        <p id="empty" class="empty" ${page.asks.length > 0 ? html` hidden` : ''}>
          Nothing is waiting on this page.
        </p>
        <nav class="pager" aria-label="Pages" ${page.single ? html` hidden` : ''}>
          <a id="prev" href="${base}" ${first ? html` hidden` : ''}>Previous page</a>
          <span id="page">Page <span id="page-number">1</span></span>
          <a
            id="next"
            href="${base}?cursor=${page.nextCursor ?? ''}"
            ${page.nextCursor ? '' : html` hidden`}
            >Next page</a
          >
        </nav>
        <template id="ask-template">${askCard()}</template>
      </div>
      ${page.tasks ? tasksPanel(page.tasks) : ''}
    </main>`;
  return layout(base, 'Approvals', body, {
    base,
    csrf: session.csrf,
    now: String(Date.now()),
    cursor: page.cursor ?? '',
    next: page.nextCursor ?? '',
    single: page.single ? '1' : '',
  });
}

/** The running tasks beside the asks: what works, and what waits on a person. */
function tasksPanel(tasks: readonly McpConsoleTaskView[]): Html {
  const rows = tasks.map(
    (task) =>
      html`<tr>
        <td><code>${task.shortId}</code></td>
        <td>${task.tool}</td>
        <td>${task.status}</td>
        <td>${task.statusMessage ?? ''}</td>
        <td>${task.owner}</td>
        <td><time datetime="${task.createdAt}">${task.createdAt}</time></td>
      </tr>`,
  );
  return html`<section id="tasks" class="tasks" aria-labelledby="tasks-title">
    <h2 id="tasks-title"><span id="tasks-total">${tasks.length}</span> running tasks</h2>
    ${
      tasks.length === 0
        ? html`<p class="empty">No task is running.</p>`
        : html`<div class="table">
            <table>
              <caption>
                Tasks still working or waiting, oldest first (as of this page)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Status</th>
                  <th scope="col">Message</th>
                  <th scope="col">Caller</th>
                  <th scope="col">Since</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

/** The recent decisions, newest first. */
export function renderHistoryPage(
  base: string,
  session: ConsoleSession,
  entries: readonly ConsoleHistoryEntry[],
): string {
  const rows = entries.map(
    (entry) =>
      html`<tr>
        <td>
          <time datetime="${new Date(entry.time).toISOString()}"
            >${new Date(entry.time).toISOString()}</time
          >
        </td>
        <td>${entry.outcome}</td>
        <td>${entry.tool}</td>
        <td>${entry.caller}</td>
        <td>${entry.operator}</td>
        <td>${entry.policies}</td>
        <td>${entry.detail}</td>
      </tr>`,
  );
  const body = html`<a class="skip" href="#main">Skip to the history</a>
    ${banner(base, session, 'history')}
    <main id="main">
      <h2>Recent decisions</h2>
      ${
        entries.length === 0
          ? html`<p class="empty">No decision yet.</p>`
          : html`<div class="table">
              <table>
                <caption>
                  The latest ${entries.length} entries, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Caller</th>
                    <th scope="col">Operator</th>
                    <th scope="col">Policy</th>
                    <th scope="col">Reason or detail</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows}
                </tbody>
              </table>
            </div>`
      }
    </main>`;
  return layout(base, 'Approvals — history', body);
}

/** A page that only says something (refused sign-in, signed out, an error). */
export function renderMessagePage(base: string, title: string, message: string, action?: string) {
  const body = html`<main id="main" class="message">
    <h1>${title}</h1>
    <p>${message}</p>
    ${action ? html`<p><a href="${base}/login">${action}</a></p>` : ''}
  </main>`;
  return layout(base, title, body);
}

function remaining(expiresAt: number): string {
  const seconds = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
