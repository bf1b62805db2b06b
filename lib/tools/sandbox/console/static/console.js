// The sandbox console's page script: one Server-Sent Events stream (/_console/events) keeps the
// exchanges, orders and runs live; buttons call the console's JSON API. No framework, no network
// beyond the sandbox itself. Everything from the merchant is put in the page as text, never as HTML.
'use strict';
(() => {
  const API = '/_console';
  const $ = (id) => document.getElementById(id);
  const state = { exchanges: new Map(), orders: new Map(), selected: null, config: null, keep: 500, total: 0 };
  const narrow = window.matchMedia('(max-width: 1099px)');

  /** el('li', { class: 'x', dataset: {a: 1} }, 'text', child) */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'dataset') Object.assign(node.dataset, v);
      else if (k === 'onclick') node.addEventListener('click', v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat(Infinity)) if (c !== undefined && c !== null && c !== false) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  const time = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false }); };
  const ms = (n) => (typeof n === 'number' ? `${n < 1 ? n.toFixed(2) : n < 10 ? n.toFixed(1) : Math.round(n)} ms` : '');

  async function call(method, path, body) {
    const res = await fetch(`${API}${path}`, {
      method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await res.json(); } catch { /* no JSON body */ }
    if (!res.ok) throw new Error((data && data.message) || `HTTP ${res.status}`);
    return data;
  }
  function status(id, text, kind) { const p = $(id); p.textContent = text; p.className = `run-status${kind ? ` ${kind}` : ''}`; }

  // ---------- pretty JSON, as DOM text ----------
  const LONG = 600;
  function jsonInto(out, v, depth) {
    const pad = '  '.repeat(depth);
    const span = (cls, text) => out.append(el('span', { class: cls }, text));
    if (Array.isArray(v)) {
      if (v.length === 0) { out.append('[]'); return; }
      out.append('[\n');
      v.forEach((x, i) => { out.append(`${pad}  `); jsonInto(out, x, depth + 1); out.append(i < v.length - 1 ? ',\n' : '\n'); });
      out.append(`${pad}]`);
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) { out.append('{}'); return; }
      out.append('{\n');
      keys.forEach((k, i) => {
        out.append(`${pad}  `); span('j-key', JSON.stringify(k)); out.append(': ');
        jsonInto(out, v[k], depth + 1); out.append(i < keys.length - 1 ? ',\n' : '\n');
      });
      out.append(`${pad}}`);
    } else if (typeof v === 'string') {
      span('j-str', v.length > LONG ? `${JSON.stringify(v.slice(0, LONG))}… (${v.length} characters)` : JSON.stringify(v));
    } else if (typeof v === 'number') span('j-num', String(v));
    else span('j-lit', String(v));
  }
  function jsonBlock(v, label) {
    const pre = el('pre', { class: 'json', tabindex: '0', 'aria-label': label });
    if (typeof v === 'string') pre.append(v); else jsonInto(pre, v, 0);
    return pre;
  }

  // ---------- exchanges ----------
  function outcome(s) {
    // A deliberate refusal (the checker's wrong GUID, broken JSON, …) that was refused went as expected: neutral, not red.
    if (s.refusedAsExpected) return el('span', { class: 'badge neutral' }, `refused as expected · ${s.status}${s.success === false ? ' · Success false' : ''}`);
    if (s.error) return el('span', { class: 'badge bad' }, 'FAILED · no reply');
    if (s.failed && s.expected === 'refusal') return el('span', { class: 'badge bad' }, `FAILED · ${s.status} · not refused`);
    if (s.failed) return el('span', { class: 'badge bad' }, `FAILED · ${s.status}${s.success === false ? ' · Success false' : ''}`);
    return el('span', { class: 'badge ok' }, String(s.status));
  }
  function exchangeRow(s) {
    const toMerchant = s.direction === 'to-merchant';
    const button = el('button', {
      type: 'button', class: `ex${s.failed ? ' failed' : s.refusedAsExpected ? ' expected' : ''}`, 'aria-current': state.selected === s.id ? 'true' : 'false', dataset: { id: s.id },
      onclick: () => select(s.id),
    },
    el('span', { class: 'id' }, `#${s.id}`),
    el('span', { class: 'dir', title: toMerchant ? 'sandbox → merchant (callback)' : 'merchant → sandbox (service API)' }, toMerchant ? '→' : '←',
      el('span', { class: 'sr' }, toMerchant ? ' callback to the merchant' : ' call from the merchant')),
    el('span', { class: 'what' }, el('b', {}, s.label || s.kind), el('span', { class: 'path' }, ` ${s.method} ${s.path}`)),
    el('span', { class: 'meta' }, outcome(s), ` ${ms(s.durationMs)}`),
    el('span', { class: 'sub' }, [time(s.at), s.scenario, s.orderId, s.note].filter(Boolean).join(' · ')));
    return el('li', { class: s.failed ? 'is-failed' : 'is-ok' }, button);
  }
  function addExchange(s, fresh) {
    state.exchanges.set(s.id, s);
    const list = $('exchange-list');
    const row = exchangeRow(s);
    if (fresh) list.prepend(row); else list.append(row);
    state.total = Math.max(state.total, s.id);
    // bounded like the sandbox's log: the oldest rows go, the count says how many
    while (state.exchanges.size > state.keep) {
      const oldest = Math.min(...state.exchanges.keys());
      state.exchanges.delete(oldest);
      const gone = list.querySelector(`.ex[data-id="${oldest}"]`);
      if (gone) gone.closest('li').remove();
    }
    countExchanges();
  }
  function countExchanges() {
    const dropped = state.total - state.exchanges.size;
    $('exchange-count').textContent = dropped > 0 ? `${state.exchanges.size} (${dropped} older dropped)` : String(state.exchanges.size);
    $('exchanges-empty').hidden = state.exchanges.size > 0;
    const onlyFailed = $('failed-only').checked;
    const anyFailed = [...state.exchanges.values()].some((x) => x.failed);
    $('no-failed').hidden = !(onlyFailed && state.exchanges.size > 0 && !anyFailed);
  }

  async function select(id) {
    state.selected = id;
    for (const b of document.querySelectorAll('.ex')) b.setAttribute('aria-current', b.dataset.id === String(id) ? 'true' : 'false');
    const body = $('detail-body');
    try {
      const { summary, exchange } = await call('GET', `/api/exchanges/${id}`);
      if (state.selected !== id) return;
      $('detail').classList.toggle('failed', summary.failed);
      const facts = [
        ['Exchange', `#${exchange.id} · ${exchange.direction === 'to-merchant' ? 'sandbox → merchant' : 'merchant → sandbox'} · ${exchange.kind}`],
        ['When', `${exchange.at} · ${ms(exchange.durationMs)}`],
        ['Request', `${exchange.request.method} ${exchange.request.url}`],
        ['Reply', exchange.error ? `none: ${exchange.error}` : `HTTP ${exchange.response.status}`],
        exchange.scenario && ['Scenario', exchange.scenario], exchange.orderId && ['Order', exchange.orderId],
      ].filter(Boolean);
      // a callback the sandbox sent can be sent again, as the log holds it (card data masked)
      const callback = exchange.direction === 'to-merchant' && state.config && Object.prototype.hasOwnProperty.call(state.config.paths, exchange.kind);
      body.replaceChildren(...[
        el('h3', {}, summary.label || summary.kind, ' ', outcome(summary)),
        callback ? el('p', { class: 'resend-row' }, el('button', { type: 'button', class: 'resend', id: 'resend', onclick: (e) => resend(exchange.id, e.currentTarget) }, 'Send again'),
          el('span', { class: 'run-status', id: 'resend-status', role: 'status', 'aria-live': 'polite' })) : [],
        el('dl', {}, facts.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
        exchange.responseInfo ? [el('h3', {}, 'ResponseInfo'), jsonBlock(exchange.responseInfo, 'ResponseInfo')] : [],
        el('h3', {}, 'Request body'), exchange.request.body === undefined ? el('p', { class: 'empty' }, '(none)') : jsonBlock(exchange.request.body, 'Request body'),
        el('h3', {}, 'Reply body'), exchange.response && exchange.response.body !== undefined ? jsonBlock(exchange.response.body, 'Reply body') : el('p', { class: 'empty' }, '(none)'),
        el('details', {}, el('summary', {}, 'Headers'), el('h3', {}, 'Request headers'), jsonBlock(exchange.request.headers, 'Request headers'),
          exchange.response ? [el('h3', {}, 'Reply headers'), jsonBlock(exchange.response.headers, 'Reply headers')] : []),
      ].flat());
      $('detail').scrollTop = 0;
      if (narrow.matches) $('detail').scrollIntoView({ block: 'start' });
    } catch (err) {
      body.replaceChildren(el('p', { class: 'empty' }, `Cannot show exchange #${id}: ${err.message}`));
    }
  }

  /** "Send again": the sandbox sends the logged callback once more; the new exchange is then shown. */
  async function resend(id, button) {
    button.disabled = true;
    status('resend-status', `Sending #${id} again…`);
    try {
      const { summary } = await call('POST', `/api/exchanges/${id}/resend`, {});
      await select(summary.id);
      status('resend-status', `This is #${id} sent again: ${summary.failed ? 'not as the service expects' : 'accepted'}.`, summary.failed ? 'bad' : 'ok');
    } catch (err) {
      status('resend-status', err.message, 'bad');
      button.disabled = false;
    }
  }
  /** "Send a payload": the text goes as is; the sandbox parses it (an error names the position, never the content). */
  async function sendPayload(event) {
    event.preventDefault();
    const button = $('send-button');
    button.disabled = true;
    status('send-status', 'Sending…');
    try {
      const { summary } = await call('POST', '/api/send', { callback: $('send-callback').value, payload: $('send-payload').value });
      status('send-status', `Sent as #${summary.id}: ${summary.failed ? `HTTP ${summary.status ?? 'no reply'}, not accepted` : `HTTP ${summary.status}, accepted`}.`, summary.failed ? 'bad' : 'ok');
      await select(summary.id);
    } catch (err) {
      status('send-status', err.message, 'bad');
    } finally { button.disabled = false; }
  }
  function renderCallbacks(c) {
    const picker = $('send-callback');
    const chosen = picker.value;
    picker.replaceChildren(...Object.keys(c.paths).map((name) => el('option', { value: name }, name)));
    if (chosen && Object.prototype.hasOwnProperty.call(c.paths, chosen)) picker.value = chosen;
  }

  // ---------- orders ----------
  const EVENTS = {
    created: ['created', ''], 'delivered-again': ['delivered again', ''], paid: ['paid', 'done'], 'payment-declined': ['payment declined by the merchant', 'neutral'], 'hold-announced': ['on hold', 'hold'],
    'documents-requested': ['documents requested', 'hold'], 'documents-delivered': ['documents delivered', 'done'],
    'documents-refused': ['documents refused by the merchant', 'bad'], 'documents-not-delivered': ['documents not delivered', 'bad'],
    dispatched: ['dispatched', ''], 'dispatched-completed': ['dispatched · completed', 'done'], completed: ['completed', 'done'], cancelled: ['cancelled', 'neutral'],
    'cancellation-confirmed': ['cancellation confirmed to the merchant', 'done'], 'cancellation-confirmed-refused': ['cancellation callback refused by the merchant', 'bad'],
    refunded: ['refunded', 'hold'], 'refund-notified': ['refund notified', 'done'], 'refund-notified-refused': ['refund notification refused by the merchant', 'bad'],
    return: ['return (RMA)', 'hold'], 'address-changed': ['shipping address changed', ''], 'status-from-merchant': ['status from the merchant', ''],
    'shipping-documents': ['shipping documents issued', ''], manifested: ['dispatched on a manifest', 'done'], 'parcel-voided': ['parcel voided', 'bad'],
    'shipping-info-sent': ['shipping info sent (UpdateOrderShippingInfo)', 'done'], 'shipping-info-refused': ['shipping info refused by the merchant', 'bad'],
    'parcel-dispatch-sent': ['parcel dispatched, merchant notified (UpdateParcelDispatch)', 'done'], 'parcel-dispatch-refused': ['parcel dispatch notification refused by the merchant', 'bad'],
    'parcel-dispatch-not-mounted': ['parcel dispatch notification not mounted (optional)', 'neutral'],
  };
  function chips(o) {
    const out = [];
    const dispatched = o.lines.reduce((n, l) => n + l.dispatched, 0);
    const ordered = o.lines.reduce((n, l) => n + l.ordered, 0);
    if (o.cancelled) out.push(['cancelled', 'neutral']); // the merchant accepted the cancellation: a success, not a failure
    else if (o.completed) out.push(['completed', 'ok']);
    if (o.paid) out.push([`paid ${o.paid.amount} ${o.paid.currency}`, 'ok']);
    if (o.holdAnnounced) out.push(o.documentsDelivered ? ['hold released', 'ok'] : ['on hold', 'warn']);
    if (dispatched > 0) out.push([`dispatched ${dispatched}/${ordered}`, dispatched >= ordered ? 'ok' : 'neutral']);
    if (o.lines.some((l) => l.excepted > 0)) out.push(['exceptions', 'warn']);
    if (o.refunds && o.refunds.length) out.push([`refunded ${o.refunds.length}×`, 'warn']);
    if (o.shippingAddress) out.push(['address changed', 'neutral']);
    if (o.shippingDocuments && o.shippingDocuments.length > 0 && !o.manifested) out.push(['documents issued', 'neutral']);
    if (o.manifested) out.push(['dispatched (manifest)', 'ok']);
    if (!o.created && o.source !== 'seed') out.push(['not created', 'bad']);
    return out.map(([t, c]) => el('span', { class: `badge ${c}` }, t));
  }
  function timelineEntry(o, t) {
    const [label, cls] = EVENTS[t.event] || [t.event.replace(/-/g, ' '), ''];
    const text = t.event === 'documents-delivered' && o.holdAnnounced ? `${label} · hold released` : label;
    return el('li', { class: cls, dataset: { event: t.event } }, el('time', { datetime: t.at }, time(t.at)), el('span', { class: 'ev' }, text),
      t.detail ? el('span', { class: 'det' }, ` — ${t.detail}`) : null,
      t.exchangeId ? el('button', { type: 'button', class: 'link', 'aria-label': `show exchange ${t.exchangeId}`, onclick: () => select(t.exchangeId) }, `#${t.exchangeId}`) : null,
      ...(t.links || []).map((l) => el('a', { class: 'doc-link', href: l.href, download: l.label, 'aria-label': `download ${l.label}` }, l.label)));
  }
  /** Consecutive entries of one event (a redelivery storm) collapse to one line "delivered again ×21" that expands to them all. */
  function timelineItems(o) {
    const items = [];
    for (let i = 0; i < o.timeline.length;) {
      let j = i + 1;
      while (j < o.timeline.length && o.timeline[j].event === o.timeline[i].event) j += 1;
      const run = o.timeline.slice(i, j);
      if (run.length < 3) items.push(...run.map((t) => timelineEntry(o, t)));
      else {
        const [label, cls] = EVENTS[run[0].event] || [run[0].event.replace(/-/g, ' '), ''];
        items.push(el('li', { class: `${cls} repeat`, dataset: { event: run[0].event, repeat: String(run.length) } },
          el('details', {}, el('summary', {}, el('time', { datetime: run[0].at }, time(run[0].at)), el('span', { class: 'ev' }, `${label} ×${run.length}`),
            el('span', { class: 'det' }, ` — until ${time(run[run.length - 1].at)}`)),
          el('ol', { class: 'timeline', 'aria-label': `${label}, ${run.length} times` }, run.map((t) => timelineEntry(o, t))))));
      }
      i = j;
    }
    return items;
  }
  function orderCard(o) {
    const timeline = timelineItems(o);
    const parcels = o.parcels.map((p) => `${p.parcelCode} (${p.version}): ${p.products.map((x) => `${x.sku} ×${x.quantity}`).join(', ')}${p.trackingNumber ? ` · tracking ${p.trackingNumber}` : ''}`);
    const excepted = o.lines.filter((l) => l.excepted > 0).map((l) => `${l.sku} ×${l.excepted}`);
    return el('li', { class: 'order', id: `order-${o.orderId}`, dataset: { orderId: o.orderId } },
      el('div', { class: 'order-head' }, el('span', { class: 'oid' }, o.orderId),
        o.internalOrderId || o.merchantOrderId ? el('span', { class: 'order-lines' }, `merchant ${o.internalOrderId || o.merchantOrderId}`) : null,
        o.source === 'seed' ? el('span', { class: 'badge neutral' }, 'seed') : null, chips(o)),
      el('p', { class: 'order-lines' }, o.lines.map((l) => `${l.sku} ×${l.ordered}${l.dispatched ? ` (${l.dispatched} dispatched)` : ''}`).join(', ')),
      parcels.length ? el('p', { class: 'parcels' }, 'Parcels: ', parcels.join('; ')) : null,
      excepted.length ? el('p', { class: 'parcels' }, 'Exceptions: ', excepted.join(', ')) : null,
      o.refunds && o.refunds.length ? el('p', { class: 'parcels' }, 'Refunds: ', o.refunds.map((r) => `${r.RefundID}: ${r.TotalRefundAmount}${r.ExternalReference ? ` (${r.ExternalReference})` : ''}`).join('; ')) : null,
      o.shippingAddress ? el('p', { class: 'parcels' }, 'Ships to: ', [o.shippingAddress.city, o.shippingAddress.countryName || o.shippingAddress.countryCode].filter((v) => typeof v === 'string').join(', ')) : null,
      o.timelineDropped ? el('p', { class: 'parcels' }, `${o.timelineDropped} older event(s) dropped`) : null,
      timeline.length ? el('ol', { class: 'timeline', 'aria-label': `timeline of ${o.orderId}` }, timeline) : null);
  }
  function renderOrders() {
    const showSeed = $('show-seed').checked;
    const lastAt = (o) => (o.timeline.length ? o.timeline[o.timeline.length - 1].at : '');
    const orders = [...state.orders.values()].filter((o) => showSeed || o.source !== 'seed' || o.timeline.length > 0)
      .sort((a, b) => lastAt(b).localeCompare(lastAt(a)));
    $('order-list').replaceChildren(...orders.map(orderCard));
    $('order-count').textContent = String(orders.length);
    $('orders-empty').hidden = orders.length > 0;
  }

  // ---------- scenarios, conformance, configuration ----------
  function renderScenarios(list) {
    $('scenario-buttons').replaceChildren(...list.map((s) => el('button', {
      type: 'button', class: 'scenario-btn', title: s.description, dataset: { scenario: s.name }, onclick: (e) => runScenario(s.name, e.currentTarget),
    }, s.name)));
  }
  /** The latest result of each scenario (from this page, the CLI through the sandbox, or before a reload). */
  function scenarioSummary(r) {
    const failed = r.steps.filter((s) => s.status === 'fail');
    return r.ok ? `passed (${r.steps.length} step(s))` : `${failed.length} step(s) failed: ${failed.map((s) => `${s.label}: ${s.detail}`).join('; ')}`;
  }
  function showResult(r) {
    if (r.kind === 'check') {
      renderCheck(r.data);
      status('check-status', `${r.data.failed === 0 && !r.data.preflight ? 'No check failed.' : `${r.data.failed} check(s) failed.`} (run at ${time(r.at)})`, r.ok ? 'ok' : 'bad');
      return;
    }
    const list = $('scenario-results');
    const old = list.querySelector(`li[data-scenario="${CSS.escape(r.name)}"]`);
    if (old) old.remove();
    list.prepend(el('li', { class: r.ok ? 'ok' : 'bad', dataset: { scenario: r.name } },
      el('span', { class: `badge ${r.ok ? 'ok' : 'bad'}` }, r.ok ? 'PASS' : 'FAIL'), ' ', el('b', {}, r.name), ` ${scenarioSummary(r.data)} · ${time(r.at)}`));
  }
  async function runScenario(name, button) {
    button.disabled = true;
    status('run-status', `Running ${name}…`);
    try {
      const r = await call('POST', `/api/scenarios/${name}`, {});
      status('run-status', `${name}: ${scenarioSummary(r)}`, r.ok ? 'ok' : 'bad');
    } catch (err) {
      status('run-status', `${name}: ${err.message}`, 'bad');
    } finally { button.disabled = false; }
  }
  function renderCheck(report) {
    const rows = report.checks.map((c) => el('tr', { class: c.status, dataset: { check: c.id } },
      el('td', { class: 'cid' }, c.id), el('td', {}, c.title),
      el('td', {}, el('span', { class: `badge ${c.status === 'pass' ? 'ok' : c.status === 'fail' ? 'bad' : 'skip'}` }, c.status.toUpperCase())),
      el('td', { class: 'cdetail' }, c.detail)));
    $('check-result').replaceChildren(
      el('table', { class: 'checks' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'ID'), el('th', { scope: 'col' }, 'Check'), el('th', { scope: 'col' }, 'Result'), el('th', { scope: 'col', class: 'cdetail' }, 'Detail'))),
        el('tbody', {}, rows)),
      el('p', { class: 'totals', id: 'check-totals' }, `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`));
    if (report.preflight) $('check-result').prepend(el('p', { class: 'run-status bad', id: 'check-preflight' }, `Preflight: ${report.preflight}`));
  }
  async function runCheck() {
    const button = $('run-check');
    button.disabled = true;
    status('check-status', 'Running the conformance checks…');
    try {
      const report = await call('POST', '/api/check', {});
      renderCheck(report);
      status('check-status', report.failed === 0 ? 'No check failed.' : `${report.failed} check(s) failed.`, report.failed === 0 ? 'ok' : 'bad');
    } catch (err) {
      status('check-status', `The check did not run: ${err.message}`, 'bad');
    } finally { button.disabled = false; }
  }
  function renderConfig(c) {
    state.config = c;
    $('target-url').textContent = c.merchantUrl || 'not set';
    $('target-guid').textContent = c.merchantGuid;
    $('cfg-guid-current').textContent = c.merchantGuid;
    renderCallbacks(c);
    const form = $('config-form');
    if (form.contains(document.activeElement)) return; // never overwrite what someone is typing
    $('cfg-url').value = c.merchantUrl || '';
    $('cfg-guid').value = '';
    $('cfg-guid').placeholder = c.merchantGuid;
    $('cfg-cart').value = c.cartToken || '';
    $('cfg-paths').replaceChildren(...Object.entries(c.paths).map(([name, path]) => el('label', {}, name,
      el('input', { type: 'text', name: `path:${name}`, value: path, autocomplete: 'off', spellcheck: 'false' }))));
  }
  async function saveConfig(event) {
    event.preventDefault();
    const form = new FormData($('config-form'));
    const change = { paths: {} };
    const url = String(form.get('merchantUrl') || '').trim();
    if (url) change.merchantUrl = url;
    const guid = String(form.get('merchantGuid') || '').trim();
    if (guid) change.merchantGuid = guid;
    change.cartToken = String(form.get('cartToken') || '').trim();
    for (const [k, v] of form.entries()) if (k.startsWith('path:')) change.paths[k.slice(5)] = String(v).trim();
    try {
      const c = await call('PUT', '/api/config', change);
      document.activeElement.blur();
      renderConfig(c);
      status('config-status', 'Saved: scenarios and checks now use this configuration.', 'ok');
    } catch (err) {
      status('config-status', err.message, 'bad');
    }
  }

  // ---------- live stream ----------
  function connect() {
    const conn = $('conn');
    const source = new EventSource(`${API}/events`);
    const on = (name, fn) => source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
    source.onopen = () => { conn.className = 'conn live'; $('conn-text').textContent = 'live'; };
    source.onerror = () => { conn.className = 'conn down'; $('conn-text').textContent = 'disconnected, retrying…'; };
    on('snapshot', (snap) => {
      state.exchanges.clear();
      state.orders.clear();
      state.keep = snap.keep || 500;
      state.total = snap.total || 0;
      $('exchange-list').replaceChildren();
      for (const s of snap.exchanges.slice().reverse()) addExchange(s, false);
      countExchanges();
      for (const o of snap.orders) state.orders.set(o.orderId, o);
      renderOrders();
      renderScenarios(snap.scenarios);
      renderConfig(snap.config);
      $('scenario-results').replaceChildren();
      for (const r of snap.results || []) showResult(r);
    });
    on('result', showResult);
    on('exchange', (s) => addExchange(s, true));
    on('order', (o) => { state.orders.set(o.orderId, o); renderOrders(); });
    on('config', renderConfig);
    on('run', (r) => { if (r.state === 'started' && r.name !== 'check') status('run-status', `Running ${r.name}…`); });
  }

  // ---------- price preview ----------
  async function previewPrices(e) {
    e.preventDefault();
    const q = new URLSearchParams({ price: $('price-input').value.trim() });
    if ($('price-class').value.trim()) q.set('productClassCode', $('price-class').value.trim());
    try {
      const rows = await call('GET', `/api/prices/preview?${q}`);
      status('price-status', '');
      $('price-result').replaceChildren(el('table', { class: 'prices' },
        el('thead', null, el('tr', null, el('th', null, 'Country'), el('th', null, 'Local price'), el('th', null, 'Steps'))),
        el('tbody', null, rows.map((r) => el('tr', null,
          el('td', null, r.countryCode),
          el('td', null, r.ok ? `${r.price} ${r.currencyCode}` : '—'),
          el('td', null, r.ok ? el('ol', { class: 'steps' }, r.steps.map((s) => el('li', null, `${s.step}: ${s.value} — ${s.detail}`))) : r.error))))));
    } catch (err) {
      status('price-status', err.message, 'fail');
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('price-form').addEventListener('submit', previewPrices);
    $('failed-only').addEventListener('change', (e) => { $('exchange-list').classList.toggle('only-failed', e.target.checked); countExchanges(); });
    $('show-seed').addEventListener('change', renderOrders);
    $('run-check').addEventListener('click', runCheck);
    $('config-form').addEventListener('submit', saveConfig);
    $('send-form').addEventListener('submit', sendPayload);
    connect();
  });
})();
