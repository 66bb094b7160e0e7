/**
 * The console's one script, served from `<path>/console.js` (the CSP allows
 * no other). Vanilla, no build step: it keeps the page's asks live over SSE,
 * pages through them, counts down their time left, and sends decisions with
 * the session's CSRF token. Everything it writes into the page is set as
 * text, never as markup.
 */
export const CONSOLE_SCRIPT = String.raw`'use strict';
(function () {
  var body = document.body;
  var base = body.dataset.base;
  var csrf = body.dataset.csrf;
  if (!base || !csrf) return;
  var skew = Number(body.dataset.now) - Date.now();
  var list = document.getElementById('asks');
  var template = document.getElementById('ask-template');
  var status = document.getElementById('status');
  var total = document.getElementById('total');
  var empty = document.getElementById('empty');
  var prev = document.getElementById('prev');
  var next = document.getElementById('next');
  var pageNumber = document.getElementById('page-number');
  var PAGE_SIZE = 50;
  var cursors = [body.dataset.cursor || ''];
  var nextCursor = body.dataset.next || '';
  var single = body.dataset.single === '1';
  var MESSAGES = {
    'own call': 'You made this call: another operator must decide it.',
    'already decided': 'Another operator already decided this ask.',
    'not found': 'This ask is gone: it expired or its call ended.',
    'not an approver': 'Your sign-in does not allow approving.',
    'reason required': 'Give a reason for denying.',
    'forbidden': 'The console refused the request. Reload the page and try again.',
    'signed out': 'Your sign-in ended. Sign in again.'
  };

  function announce(text) {
    status.textContent = '';
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function setTotal(n) {
    total.textContent = String(Math.max(0, n));
  }

  function cards() {
    return list.querySelectorAll('li.ask');
  }

  function cardOf(id) {
    var found = null;
    cards().forEach(function (card) { if (card.dataset.id === id) found = card; });
    return found;
  }

  function render(ask) {
    var card = template.content.firstElementChild.cloneNode(true);
    card.dataset.id = ask.id;
    card.dataset.expires = String(ask.expiresAt);
    card.querySelector('article').setAttribute('aria-labelledby', 't-' + ask.id);
    var title = card.querySelector('h2');
    title.id = 't-' + ask.id;
    title.textContent = ask.tool;
    card.querySelector('.prompt').textContent = ask.prompt;
    card.querySelector('.caller').textContent = ask.caller;
    card.querySelector('.preview').textContent = ask.preview;
    card.querySelector('.policies').textContent = ask.policies || '\u2014';
    card.querySelector('label').htmlFor = 'r-' + ask.id;
    card.querySelector('.reason').id = 'r-' + ask.id;
    tick(card);
    return card;
  }

  function tick(card) {
    var left = Math.max(0, Math.round((Number(card.dataset.expires) - (Date.now() + skew)) / 1000));
    card.querySelector('.left').textContent =
      Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
  }

  function refreshPager() {
    empty.hidden = cards().length > 0;
    prev.hidden = cursors.length < 2 && !cursors[0];
    next.hidden = !nextCursor;
    pageNumber.textContent = String(cursors.length);
  }

  function load(cursor) {
    var url = base + '/asks' + (cursor ? '?cursor=' + encodeURIComponent(cursor) : '');
    return fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) {
        if (response.status === 401) throw new Error('signed out');
        return response.json();
      })
      .then(function (page) {
        list.replaceChildren.apply(list, page.asks.map(render));
        nextCursor = page.nextCursor || '';
        setTotal(page.total);
        refreshPager();
      })
      .catch(function (error) { announce(MESSAGES[error.message] || 'The console could not load the asks.'); });
  }

  function remove(card) {
    var focused = card.contains(document.activeElement);
    var after = card.nextElementSibling || card.previousElementSibling;
    card.remove();
    if (focused) {
      var heading = after && after.querySelector('h2');
      (heading || total).focus();
    }
    if (cards().length === 0 && nextCursor) load(cursors[cursors.length - 1]);
    refreshPager();
  }

  function decide(card, approve) {
    var problem = card.querySelector('.problem');
    var reasonField = card.querySelector('.reason');
    var reason = reasonField.value.trim();
    problem.hidden = true;
    reasonField.removeAttribute('aria-invalid');
    if (!approve && !reason) {
      reasonField.setAttribute('aria-invalid', 'true');
      problem.textContent = MESSAGES['reason required'];
      problem.hidden = false;
      reasonField.focus();
      return;
    }
    card.querySelectorAll('button').forEach(function (button) { button.disabled = true; });
    fetch(base + '/asks/' + encodeURIComponent(card.dataset.id) + '/decision', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ approve: approve, reason: reason || undefined })
    })
      .then(function (response) { return response.json().catch(function () { return {}; }); })
      .then(function (result) {
        if (result.ok) return;
        problem.textContent = MESSAGES[result.problem] || 'The decision was not taken.';
        problem.hidden = false;
        card.querySelectorAll('button').forEach(function (button) { button.disabled = false; });
      });
  }

  list.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    var card = button && button.closest('li.ask');
    if (!card) return;
    if (button.classList.contains('approve')) decide(card, true);
    if (button.classList.contains('deny')) decide(card, false);
  });

  list.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && event.target.classList.contains('reason')) {
      event.preventDefault();
      decide(event.target.closest('li.ask'), false);
    }
  });

  next.addEventListener('click', function (event) {
    event.preventDefault();
    if (!nextCursor) return;
    cursors.push(nextCursor);
    load(nextCursor).then(function () { total.focus(); });
  });

  prev.addEventListener('click', function (event) {
    event.preventDefault();
    if (cursors.length > 1) cursors.pop();
    else cursors = [''];
    load(cursors[cursors.length - 1]).then(function () { total.focus(); });
  });

  total.setAttribute('tabindex', '-1');
  window.setInterval(function () { cards().forEach(tick); }, 1000);

  var events = new EventSource(base + '/events');
  var opened = false;
  events.addEventListener('open', function () {
    // A reconnect may have missed events: the visible page is read again.
    if (opened && !single) load(cursors[cursors.length - 1]);
    opened = true;
  });
  events.addEventListener('pending', function (event) {
    var ask = JSON.parse(event.data);
    setTotal(Number(total.textContent) + 1);
    if (single) return;
    if (!nextCursor && cards().length < PAGE_SIZE && !cardOf(ask.id)) {
      list.appendChild(render(ask));
      refreshPager();
      announce('New ask: ' + ask.tool + ' from ' + ask.caller);
    } else if (!nextCursor) {
      load(cursors[cursors.length - 1]); // the page is full: a next page now exists
    }
  });
  events.addEventListener('decided', function (event) {
    var decision = JSON.parse(event.data);
    var card = cardOf(decision.id);
    setTotal(Number(total.textContent) - 1);
    if (!card) return;
    remove(card);
    announce(decision.tool + ' for ' + decision.caller + ' was ' +
      (decision.approved ? 'approved' : 'denied') + ' by ' + decision.operator);
  });
  events.addEventListener('expired', function (event) {
    var card = cardOf(JSON.parse(event.data).id);
    if (card) remove(card);
  });
  events.addEventListener('count', function (event) {
    setTotal(JSON.parse(event.data).total);
  });
})();
`;
