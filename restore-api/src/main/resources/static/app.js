// The dynarestore page: tables and their calendars, the restore dialog with preview, and the
// tasks list with live progress (Server-Sent Events). It only calls the public REST API.
'use strict';

const $ = (sel) => document.querySelector(sel);
const state = { table: null, month: new Date().toISOString().slice(0, 7), streams: new Map(), rollbacks: new Set() };

// ---- credentials: an API key or a bearer token, kept in this tab only ----

const auth = {
  get() { return JSON.parse(sessionStorage.getItem('dynarestore.auth') || 'null'); },
  set(kind, value) { sessionStorage.setItem('dynarestore.auth', JSON.stringify({ kind, value })); },
  headers() {
    const a = this.get();
    if (!a) return {};
    return a.kind === 'bearer' ? { 'Authorization': `Bearer ${a.value}` } : { 'X-Api-Key': a.value };
  },
};
let signingIn = null;

// asks for a credential once, however many calls were refused meanwhile
function signIn(why) {
  if (!signingIn) {
    signingIn = new Promise((resolve) => {
      $('#sign-in-why').textContent = why || '';
      $('#sign-in-value').value = '';
      $('#sign-in-form').onsubmit = () => {
        auth.set($('#sign-in-kind').value, $('#sign-in-value').value.trim());
        signingIn = null;
        resolve();
      };
      $('#sign-in').showModal();
    });
  }
  return signingIn;
}

async function authorizedFetch(path, options = {}) {
  for (;;) {
    const response = await fetch(path, { ...options, headers: { ...(options.headers || {}), ...auth.headers() } });
    if (response.status !== 401) return response;
    const problem = await response.json().catch(() => ({}));
    await signIn(problem.detail);
  }
}

async function api(path, options = {}) {
  const response = await authorizedFetch(path, {
    ...options,
    headers: { 'Accept': 'application/json', ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const problem = body || { detail: response.statusText };
    const detail = String(problem.detail || problem.title || response.status);
    // the detail often quotes its field errors already; list only those it does not
    const fields = (problem.errors || []).map((e) => `${e.field}: ${e.message}`)
      .filter((line) => !detail.includes(line)).join('\n');
    const error = new Error(detail + (fields ? '\n' + fields : ''));
    error.status = response.status;
    throw error;
  }
  return body;
}

// Server-Sent Events over fetch, since EventSource cannot send the credential header
async function streamEvents(path, onEvent, signal) {
  const response = await authorizedFetch(path, { headers: { 'Accept': 'text/event-stream' }, signal });
  if (!response.ok) throw new Error(`events: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onEvent(type, data.join('\n'));
    }
  }
}

async function download(path) {
  try {
    const response = await authorizedFetch(path);
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).detail || response.statusText);
    const name = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') || '');
    const url = URL.createObjectURL(await response.blob());
    const a = el('a', { href: url, download: name ? name[1] : 'restore.csv' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (e) {
    alert(e.message);
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// ---- tables and calendar ----

async function loadTables() {
  const tables = await api('/tables');
  $('#where').textContent = `account ${tables.account}, ${tables.region}`;
  const list = $('#tables');
  list.replaceChildren(...tables.tables.map((t) => el('li', {},
    el('button', { type: 'button', class: 'table-link', 'data-table': t, onclick: () => selectTable(t) }, t))));
  if (tables.tables.length === 0) list.append(el('li', { class: 'note' }, 'No backups in the vault yet.'));
}

async function selectTable(table) {
  state.table = table;
  document.querySelectorAll('.table-link').forEach((b) => b.setAttribute('aria-current', String(b.dataset.table === table)));
  $('#table-pane').hidden = false;
  $('#table-title').textContent = table;
  $('#preview').replaceChildren();
  $('#history').replaceChildren();
  $('#history-answer').hidden = true;
  $('#answer').hidden = true;
  const backups = await api(`/tables/${encodeURIComponent(table)}/backups`);
  const usable = backups.backups.filter((b) => !b.expired).reverse();
  $('#backup-id').replaceChildren(...usable.map((b) => el('option', { value: b.backupId },
    `${b.backupId} (${b.takenAt.slice(0, 19).replace('T', ' ')}, ${b.itemCount} items)`)));
  if (usable.length) state.month = usable[0].takenAt.slice(0, 7);
  $('#activity-answer').hidden = true;
  loadActivity(); // reads the change log: the rest of the view does not wait for it
  await Promise.all([loadCalendar(), loadPitr(), loadProtection()]);
}

// ---- protection (the protector's policy of the table) ----

async function loadProtection() {
  const path = `/tables/${encodeURIComponent(state.table)}/protection`;
  let p = null;
  try {
    p = await api(path);
  } catch (e) {
    if (e.status !== 404) {
      $('#protection-summary').textContent = e.message;
      return;
    }
  }
  $('#protect-form').hidden = !!p;
  $('#backup-now').hidden = !p;
  $('#protection-summary').textContent = p
    ? `Protected: ${p.backups.method} backups ${p.backups.cron ? `on cron '${p.backups.cron}' (UTC)` : `every ${p.backups.every}`}, kept ${p.backups.retention}` +
      (p.changeLog && p.changeLog.method !== 'NONE'
        ? `; change log from ${p.changeLog.method} every ${p.changeLog.flushEvery}` +
          (p.changeLog.shardGroups > 1 ? ` in ${p.changeLog.shardGroups} shard groups` : '') : '; no change log') +
      ` (set by ${p.setBy || 'unknown'})`
    : 'Not protected: nothing takes new backups of this table.';
  showDrill(p);
}

// the table's restore drills: how often, and the last one's outcome (a failed one stands out)
function showDrill(p) {
  const out = $('#drill-status');
  const last = p && p.lastDrill;
  out.hidden = !(p && (p.drills || last));
  out.className = `note drill-${last ? last.outcome : 'NONE'}`;
  if (out.hidden) return;
  const every = p.drills ? `Restore drills every ${p.drills.every}. ` : 'No restore drills scheduled. ';
  out.textContent = every + (!last ? 'No drill has run yet.'
    : last.outcome === 'RUNNING' ? `A drill is running since ${last.startedAt} (${last.restoreId}).`
      : `Last drill ${last.outcome.toLowerCase()} at ${last.endedAt} (${last.restoreId})` +
        (last.reason ? `: ${last.reason}` : '.'));
}

// a native incremental export spans 15 minutes at least: offer that when it is chosen
function changeLogChosen() {
  const flush = $('#protect-flush');
  if ($('#protect-changelog').value === 'NATIVE_INCREMENTAL' && flush.value === 'PT1M') flush.value = 'PT15M';
  if ($('#protect-changelog').value === 'STREAMS' && flush.value === 'PT15M') flush.value = 'PT1M';
  flush.disabled = $('#protect-changelog').value === 'NONE';
  $('#protect-groups').disabled = $('#protect-changelog').value !== 'STREAMS';
}

async function protectTable(event) {
  event.preventDefault();
  const body = {
    backups: {
      method: $('#protect-method').value,
      // an ISO-8601 interval (PT1H), or a five-field cron schedule in UTC (0 3 * * *)
      ...($('#protect-every').value.trim().startsWith('P')
        ? { every: $('#protect-every').value.trim() } : { cron: $('#protect-every').value.trim() }),
      retention: $('#protect-retention').value.trim(),
    },
    changeLog: $('#protect-changelog').value === 'NONE' ? { method: 'NONE' }
      : { method: $('#protect-changelog').value, flushEvery: $('#protect-flush').value.trim(),
          ...($('#protect-changelog').value === 'STREAMS' && Number($('#protect-groups').value) > 1
            ? { shardGroups: Number($('#protect-groups').value) } : {}) },
  };
  try {
    await api(`/tables/${encodeURIComponent(state.table)}/protection`, { method: 'PUT', body: JSON.stringify(body) });
    await loadProtection();
  } catch (e) {
    $('#protection-summary').textContent = e.message;
  }
}

async function backupNow() {
  try {
    const r = await api(`/tables/${encodeURIComponent(state.table)}/backups`, { method: 'POST' });
    $('#protection-summary').textContent += ` Backup ${r.backupId} asked for.`;
  } catch (e) {
    $('#protection-summary').textContent = e.message;
  }
}

async function loadPitr() {
  try {
    const w = await api(`/tables/${encodeURIComponent(state.table)}/pitr-windows`);
    showQuickLinks(w);
    $('#pitr-summary').textContent = w.latestRestorable
      ? `Restorable to any second of ${w.windows.length} window(s); latest ${w.latestRestorable}` +
        (w.gaps.length ? `; ${w.gaps.length} gap(s)` : '')
      : 'No point-in-time history; restore from a backup.';
  } catch (e) {
    $('#pitr-summary').textContent = e.message;
  }
}

async function loadCalendar() {
  $('#month').textContent = state.month;
  const cal = await api(`/tables/${encodeURIComponent(state.table)}/calendar?month=${state.month}`);
  const first = new Date(cal.days[0].date + 'T00:00:00Z').getUTCDay();
  const cells = [];
  for (let i = 0; i < (first + 6) % 7; i++) cells.push(el('div'));
  for (const day of cal.days) {
    const cell = el('div', { class: `day pitr-${day.pitr}${day.backups.length ? ' has-backup' : ''}`,
      'data-date': day.date, title: `${day.date}: point in time ${day.pitr}` }, day.date.slice(8));
    if (day.pitr !== 'NONE') {
      // a restorable day: its seconds are offered by the hour, minute and second selectors
      cell.addEventListener('click', () => {
        if ($('#source-kind').value !== 'undo') { $('#source-kind').value = 'pointInTime'; showSource(); }
        pickDay(day.date).catch(showError);
      });
    }
    for (const b of day.backups) {
      cell.append(el('button', { type: 'button', class: 'backup-chip', title: b.id, disabled: b.expired ? '' : null,
        onclick: (e) => { e.stopPropagation(); $('#source-kind').value = 'backup'; showSource(); $('#backup-id').value = b.id; } }, 'B'));
    }
    for (const s of day.snaps) cell.append(el('button', { type: 'button', title: s.id, disabled: '' }, 'S'));
    cells.push(cell);
  }
  $('#calendar').replaceChildren(...cells);
}

function shiftMonth(delta) {
  const [y, m] = state.month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  state.month = d.toISOString().slice(0, 7);
  loadCalendar().catch(showError);
}

// ---- the restore dialog ----

function showSource() {
  const kind = $('#source-kind').value;
  const pit = kind === 'pointInTime' || kind === 'undo';
  document.querySelector('.for-backup').hidden = kind !== 'backup';
  document.querySelector('.for-snap').hidden = kind !== 'snap';
  document.querySelector('.for-pit').hidden = !pit;
  // an undo reverts the keys written in the window, in the table itself
  document.querySelectorAll('.for-undo').forEach((e) => { e.hidden = kind !== 'undo'; });
  document.querySelector('.for-pit-only').hidden = kind === 'undo';
  if (kind === 'undo') { $('#dest-type').value = 'IN_PLACE'; showDestination(); }
}

function showScope() {
  document.querySelector('.for-records').hidden = $('#scope').value !== 'RECORDS';
}

function showDestination() {
  const type = $('#dest-type').value;
  document.querySelector('.for-table').hidden = !(type === 'NEW_TABLE' || type === 'EXISTING_TABLE');
  document.querySelector('.for-file').hidden = type !== 'FILE';
  document.querySelector('.for-email').hidden = type !== 'FILE' || $('#delivery').value !== 'EMAIL';
  document.querySelector('.for-dry-run').hidden = !(type === 'EXISTING_TABLE' || type === 'IN_PLACE');
}

function source() {
  const kind = $('#source-kind').value;
  if (kind === 'undo') {
    return { table: state.table, pointInTime: $('#point-in-time').value.trim(),
      undo: { until: $('#undo-until').value.trim(), onConflict: $('#undo-conflict').value,
        ...($('#undo-strict').checked ? { strict: true } : {}) } };
  }
  if (kind === 'snap') return { table: state.table, snapId: $('#snap-id').value };
  if (kind === 'pointInTime' && $('#pit-day').value && !$('#point-in-time').value) {
    throw new Error(`No second of ${$('#pit-day').value} is restorable: pick a day the calendar shows green or ` +
      'yellow, or the latest restorable second above it.');
  }
  return kind === 'pointInTime'
    ? { table: state.table, pointInTime: $('#point-in-time').value.trim() || 'latest' }
    : { table: state.table, backupId: $('#backup-id').value };
}

function scope() {
  return $('#scope').value === 'RECORDS' ? recordsScope() : { type: 'FULL' };
}

function destination() {
  const type = $('#dest-type').value;
  if (type === 'FILE') {
    const delivery = $('#delivery').value === 'EMAIL'
      ? { type: 'EMAIL', recipients: $('#recipients').value.split(',').map((r) => r.trim()).filter(Boolean) }
      : { type: 'DOWNLOAD' };
    return { type, format: 'CSV', delivery };
  }
  if (type === 'IN_PLACE') return { type };
  const d = { type };
  const name = $('#dest-table').value.trim();
  if (name) d.tableName = name;
  if (type === 'NEW_TABLE') d.options = tableOptions();
  return d;
}

function showError(e) {
  $('#form-error').textContent = e.message;
  $('#form-error').hidden = false;
}

async function preview() {
  $('#form-error').hidden = true;
  const out = $('#preview');
  out.replaceChildren(el('p', { class: 'note' }, 'Reading…'));
  try {
    const p = await api('/restores/preview', { method: 'POST', body: JSON.stringify({ source: source(), scope: scope(), limit: 50 }) });
    const rows = p.records.map((r) => el('tr', {}, ...p.columns.map((c) => el('td', {}, r[c] ? cell(r[c]) : '')),
      el('td', {}, el('button', { type: 'button', class: 'history-link', onclick: () => showHistory(keyOf(r, p.keyAttributes)) },
        'History'))));
    out.replaceChildren(
      el('p', { class: 'note', id: 'preview-summary' }, `${p.count} records shown` +
        (p.complete ? ' (all that match)' : ` (first matches of ${p.scanned} read)`) + ` from ${p.backupId}`),
      el('table', { id: 'preview-table' }, el('thead', {}, el('tr', {}, ...p.columns.map((c) => el('th', {}, c)), el('th'))),
        el('tbody', {}, ...rows)));
  } catch (e) {
    out.replaceChildren();
    showError(e);
  }
}

function cell(value) {
  const [type, v] = Object.entries(value)[0];
  return ['S', 'N', 'B', 'BOOL', 'NULL'].includes(type) ? String(v) : JSON.stringify(value);
}

async function start(event) {
  event.preventDefault();
  $('#form-error').hidden = true;
  try {
    const body = { source: source(), scope: scope(), destination: destination() };
    if (!document.querySelector('.for-dry-run').hidden && $('#dry-run').checked) body.dryRun = true;
    const summary = await api('/restores', { method: 'POST', body: JSON.stringify(body) });
    const answer = $('#answer');
    answer.replaceChildren(`Restore ${summary.restoreId} is ${summary.state}.`);
    if (summary.emailLink) {
      answer.append(el('div', {}, 'Passcode (shown only now; give it to the recipients by phone or chat): ',
        el('strong', { id: 'passcode' }, summary.emailLink.passcode)));
    }
    answer.hidden = false;
    upsertTask(summary);
  } catch (e) {
    showError(e);
  }
}

// ---- tasks ----

async function loadTasks() {
  const page = await api('/restores?limit=100');
  page.items.slice().reverse().forEach(upsertTask);
}

function describeDestination(s) {
  if (s.file) return 'CSV file';
  return s.destination ? s.destination.tableName : '';
}

function upsertTask(s) {
  const body = $('#tasks tbody');
  let row = body.querySelector(`tr[data-restore="${CSS.escape(s.restoreId)}"]`);
  if (!row) {
    row = el('tr', { 'data-restore': s.restoreId },
      el('td', {}, s.restoreId), el('td', { class: 'source' }), el('td', { class: 'destination' }),
      el('td', { class: 'state' }), el('td', {}, el('progress', { max: '100', value: '0' })),
      el('td', { class: 'items' }), el('td', { class: 'actions' }));
    body.prepend(row);
  }
  const at = (x) => (x.undo ? `undo (${x.pointInTime}, ${x.undo.until}]` : x.backupId || x.pointInTime || x.snapId || '');
  const src = s.source ? `${s.source.table} ${at(s.source)}` : '';
  const sourceCell = row.querySelector('.source');
  sourceCell.replaceChildren(src);
  sourceCell.title = s.recordFilters ? `records: ${s.recordFilters}` : '';
  // a record restore's filters in words: the row shows as much as fits, the cell's title all of them
  if (s.recordFilters) sourceCell.append(el('div', { class: 'scope' }, `records: ${s.recordFilters}`));
  row.querySelector('.destination').textContent = describeDestination(s);
  row.querySelector('.state').textContent = s.state;
  row.querySelector('.state').className = `state state-${s.state}`;
  row.querySelector('.items').textContent = s.itemsWritten;
  if (s.dryRun) row.querySelector('.state').textContent = `${s.state} (dry run)`;
  if (s.rollback) row.querySelector('.state').textContent += ` · rollback ${s.rollback.state}`;
  showOutcome(row, s);
  const bar = row.querySelector('progress');
  if (s.state === 'COMPLETED') bar.value = 100;
  else if (s.estimatedItems) bar.value = Math.min(100, 100 * s.itemsWritten / s.estimatedItems);
  const actions = row.querySelector('.actions');
  actions.replaceChildren();
  if (!['COMPLETED', 'FAILED', 'REJECTED', 'CANCELLED'].includes(s.state)) {
    actions.append(el('button', { type: 'button', class: 'cancel', onclick: () => cancel(s.restoreId) }, 'Cancel'));
    follow(s.restoreId);
  } else if (s.file && s.state === 'COMPLETED') {
    actions.append(el('button', { type: 'button', class: 'download', onclick: () => download(s.file.download) },
      'Download'));
  } else if (s.rollbackPossible) {
    actions.append(el('button', { type: 'button', class: 'rollback', onclick: () => rollback(s.restoreId) },
      'Roll back'));
  }
  if (s.rollback && s.rollback.state === 'RUNNING') watchRollback(s.restoreId);
  if (s.reason) row.title = s.reason;
}

/** An undo's conflicts: the keys written again after its window (or while a strict undo ran), with both images. */
function showConflicts(out, c) {
  const what = c.onConflict === 'OVERWRITE' ? 'taken back to the window\'s start too' : 'left as they are';
  out.append(el('div', { class: 'conflicts' }, `${c.count} key${c.count === 1 ? ' was' : 's were'} written again `
    + `after the window or while the undo ran: ${what}.`));
  const image = (json) => (json ? json : '(absent)');
  const rows = (c.samples || []).map((x) => el('tr', {}, el('td', {}, x.key), el('td', {}, image(x.before)),
    el('td', {}, image(x.latest))));
  if (rows.length) {
    out.append(el('table', { class: 'conflict-samples' },
      el('thead', {}, el('tr', {}, el('th', {}, 'key'), el('th', {}, 'at the window\'s start'), el('th', {}, 'now'))),
      el('tbody', {}, ...rows)));
  }
}

/** The dry run's diff and the verification, under the task's row. */
function showOutcome(row, s) {
  let detail = row.nextElementSibling;
  if (!detail || !detail.classList.contains('outcome')) {
    detail = el('tr', { class: 'outcome', 'data-outcome': s.restoreId }, el('td', { colspan: '7' }));
    row.after(detail);
  }
  const cellOut = detail.firstChild;
  cellOut.replaceChildren();
  if (s.conflicts) showConflicts(cellOut, s.conflicts);
  if (s.diff) {
    const d = s.diff;
    cellOut.append(el('div', { class: 'diff' }, `Would create ${d.create}, overwrite ${d.overwrite}, `
      + `leave ${d.equal} equal, delete ${d.delete} (${d.skipped} lines skipped).`));
    const samples = (d.samples || []).map((x) => el('li', {}, `${x.change} ${x.key}` +
      (x.changedAttributes && x.changedAttributes.length ? ` — changes ${x.changedAttributes.join(', ')}` : '')));
    if (samples.length) cellOut.append(el('ul', { class: 'diff-samples' }, ...samples));
  }
  if (s.verification && s.verification.status !== 'SKIPPED') {
    const v = s.verification;
    cellOut.append(el('div', { class: `verification verification-${v.status}` }, `Verification ${v.status}: `
      + `${v.linesChecked} lines in ${v.segmentsChecked} segments, ${v.readBackMatched}/${v.readBack} read back`
      + (v.checksum ? `, checksum ${v.checksum}` : '')
      + (v.mismatches && v.mismatches.length ? ` — ${v.mismatches.join('; ')}` : '')));
  }
  if (s.rollback) {
    const r = s.rollback;
    cellOut.append(el('div', { class: 'rollback-state' }, `Rollback ${r.state}` + (r.state === 'COMPLETED'
      ? `: ${r.itemsRestored} items put back, ${r.itemsDeleted} deleted, ${r.itemsUnchanged} as they were` : '')
      + (r.reason ? ` — ${r.reason}` : '')));
  }
  detail.hidden = !cellOut.hasChildNodes();
}

async function rollback(restoreId) {
  if (!confirm(`Put the table back as it was before restore ${restoreId}? Changes made to those keys since are lost.`)) return;
  try {
    await api(`/restores/${encodeURIComponent(restoreId)}/rollback`, { method: 'POST', body: '{}' });
    watchRollback(restoreId);
  } catch (e) {
    alert(e.message);
  }
}

/** A rollback comes after the restore's event stream ended: its task is read again until the rollback ends. */
function watchRollback(restoreId) {
  if (state.rollbacks.has(restoreId)) return;
  state.rollbacks.add(restoreId);
  const poll = async () => {
    try {
      const s = await api(`/restores/${encodeURIComponent(restoreId)}`);
      upsertTask(s);
      if (!s.rollback || s.rollback.state === 'RUNNING') { setTimeout(poll, 1000); return; }
    } catch (e) {
      setTimeout(poll, 3000);
      return;
    }
    state.rollbacks.delete(restoreId);
  };
  setTimeout(poll, 500);
}

function follow(restoreId) {
  if (state.streams.has(restoreId)) return;
  const controller = new AbortController();
  state.streams.set(restoreId, controller);
  const refresh = () => api(`/restores/${encodeURIComponent(restoreId)}`).then(upsertTask).catch(() => {});
  const onEvent = (type, data) => {
    if (type === 'RestoreProgressed') {
      const p = JSON.parse(data);
      const row = document.querySelector(`tr[data-restore="${CSS.escape(restoreId)}"]`);
      if (!row) return;
      if (p.percent !== null && p.percent !== undefined) row.querySelector('progress').value = p.percent;
      row.querySelector('.items').textContent = p.itemsWritten +
        (p.etaSeconds !== null && p.etaSeconds !== undefined ? ` (about ${p.etaSeconds} s left)` : '');
    } else if (['RestorePlanned', 'DestinationReady', 'SegmentsDispatched', 'SegmentCompleted',
      'CancellationStarted'].includes(type)) {
      refresh();
    } else if (['RestoreCompleted', 'RestoreFailed', 'RestoreCancelled', 'RestoreRejected'].includes(type)) {
      controller.abort();
      state.streams.delete(restoreId);
      refresh();
    }
  };
  streamEvents(`/restores/${encodeURIComponent(restoreId)}/events`, onEvent, controller.signal)
    .catch(() => {})
    .finally(() => {
      state.streams.delete(restoreId);
      readUntilEnded(restoreId);
    });
}

/**
 * Reads a task again until it has ended: its event stream can end first (a dropped connection, or
 * the last event read before the task's view folded it), and the row would stay as it was.
 */
function readUntilEnded(restoreId, attempts = 30) {
  setTimeout(async () => {
    if (state.streams.has(restoreId)) return; // a stream follows it again
    try {
      const s = await api(`/restores/${encodeURIComponent(restoreId)}`);
      upsertTask(s);
      if (['COMPLETED', 'FAILED', 'REJECTED', 'CANCELLED'].includes(s.state)) return;
    } catch (e) {
      // read again below
    }
    if (attempts > 1) readUntilEnded(restoreId, attempts - 1);
  }, 2000);
}

async function cancel(restoreId) {
  try {
    upsertTask(await api(`/restores/${encodeURIComponent(restoreId)}/cancel`, { method: 'POST', body: '{}' }));
  } catch (e) {
    alert(e.message);
  }
}

// ---- wiring ----

$('#source-kind').addEventListener('change', showSource);
$('#scope').addEventListener('change', showScope);
$('#dest-type').addEventListener('change', showDestination);
$('#delivery').addEventListener('change', showDestination);
$('#prev-month').addEventListener('click', () => shiftMonth(-1));
$('#next-month').addEventListener('click', () => shiftMonth(1));
$('#preview-btn').addEventListener('click', preview);
$('#restore-form').addEventListener('submit', start);
$('#protect-form').addEventListener('submit', protectTable);
$('#protect-changelog').addEventListener('change', changeLogChosen);
$('#backup-now').addEventListener('click', backupNow);
wireDialog();
wireHistory();
wireActivity();
showSource(); showScope(); showDestination();
Promise.all([loadTables(), loadTasks()]).then(() => document.body.dataset.ready = 'true').catch(showError);
