// Item history: every version of one key, oldest first, with what changed; "restore this version"
// restores that key in place at that version's second (or from its backup), dry run first.
'use strict';

const itemHistory = { key: null, versions: [], before: null, next: null };

function keyOf(record, names) {
  return Object.fromEntries(names.map((n) => [n, record[n]]));
}

async function showHistory(key, more = false) {
  itemHistory.key = key;
  $('#history-key').value = JSON.stringify(key);
  const out = $('#history');
  if (!more) {
    itemHistory.versions = [];
    out.replaceChildren(el('p', { class: 'note' }, 'Reading…'));
  }
  const from = more && itemHistory.next ? `&from=${encodeURIComponent(itemHistory.next)}` : '';
  try {
    const page = await api(`/tables/${encodeURIComponent(state.table)}/items/history?limit=50` +
      `&key=${encodeURIComponent(JSON.stringify(key))}${from}`);
    if (!more) itemHistory.before = page.beforeKnown ? (page.before || null) : undefined;
    itemHistory.versions.push(...page.versions);
    itemHistory.next = page.next || null;
    renderHistory();
  } catch (e) {
    out.replaceChildren(el('p', { role: 'alert', class: 'history-error' }, e.message));
  }
}

function valueText(value) {
  if (value === undefined) return '—';
  const [type, v] = Object.entries(value)[0];
  return ['S', 'N', 'B', 'BOOL', 'NULL'].includes(type) ? String(v) : JSON.stringify(value);
}

// a long value is cut to a glance; the whole of it is its title
function shortValue(value) {
  const text = valueText(value);
  return el('span', { title: text.length > 60 ? text : null }, text.length > 60 ? `${text.slice(0, 57)}…` : text);
}

function renderHistory() {
  const items = [];
  let previous = itemHistory.before;
  itemHistory.versions.forEach((v, i) => {
    const changes = v.changed.map((name) => el('li', {},
      el('code', {}, name), ': ',
      el('span', { class: 'was' }, previous ? shortValue(previous[name]) : '?'), ' → ',
      el('span', { class: 'now' }, v.item ? shortValue(v.item[name]) : '—')));
    const actions = el('div', { class: 'version-actions' });
    if (v.restoreSource) {
      actions.append(el('button', { type: 'button', class: 'restore-version', onclick: () => restoreVersion(v, true) },
        'Restore this version (dry run)'));
    } else {
      actions.append(el('span', { class: 'note' }, v.kind === 'DELETED'
        ? 'a delete: restore the version before it'
        : 'not restorable alone: a later write of the key falls in the same second, or the second is outside the window'));
    }
    items.push(el('li', { class: `version kind-${v.kind}`, 'data-index': i },
      el('div', { class: 'version-head' },
        el('time', { datetime: v.time }, v.time.replace('T', ' ').replace('Z', ' UTC')), ' ',
        el('strong', { class: 'kind' }, v.kind.toLowerCase()),
        v.origin === 'BACKUP' ? el('span', { class: 'note' }, ` seen in backup ${v.backupId} (written at some time before it)`) : ''),
      el('ul', { class: 'diff' }, ...changes), actions));
    previous = v.item || null;
  });
  const head = itemHistory.before === undefined
    ? 'What the item was before the first version is not known (no backup before it).'
    : `Before the first version the item ${itemHistory.before ? 'existed' : 'did not exist'}.`;
  const nodes = [el('p', { class: 'note' }, head), el('ol', { id: 'history-versions' }, ...items)];
  if (!itemHistory.versions.length) nodes.push(el('p', { class: 'note' }, 'No write of this key in the vault.'));
  if (itemHistory.next) nodes.push(el('button', { type: 'button', id: 'history-more', onclick: () => showHistory(itemHistory.key, true) }, 'Later versions'));
  $('#history').replaceChildren(...nodes);
}

function versionRequest(v, dryRun) {
  const names = Object.keys(itemHistory.key);
  const filter = { partitionKey: { condition: 'EqualTo', values: [valueText(itemHistory.key[names[0]])] } };
  if (names[1]) filter.sortKey = { condition: 'EqualTo', values: [valueText(itemHistory.key[names[1]])] };
  const source = { table: state.table, ...v.restoreSource };
  return { source, scope: { type: 'RECORDS', keyFilters: [filter] }, destination: { type: 'IN_PLACE' },
    ...(dryRun ? { dryRun: true } : {}) };
}

async function restoreVersion(v, dryRun) {
  const out = $('#history-answer');
  out.hidden = false;
  try {
    const summary = await api('/restores', { method: 'POST', body: JSON.stringify(versionRequest(v, dryRun)) });
    upsertTask(summary);
    out.replaceChildren(`${dryRun ? 'Dry run' : 'Restore'} ${summary.restoreId} of this key to ${v.time} is ${summary.state}.`);
    if (dryRun) {
      out.append(' ', el('button', { type: 'button', id: 'history-confirm', onclick: () => restoreVersion(v, false) },
        'Restore it now'));
    }
  } catch (e) {
    out.replaceChildren(el('span', { role: 'alert' }, e.message));
  }
}

function wireHistory() {
  $('#history-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let key;
    try {
      key = JSON.parse($('#history-key').value);
    } catch (e) {
      $('#history').replaceChildren(el('p', { role: 'alert', class: 'history-error' },
        'The key is not JSON: give it in DynamoDB JSON, for example {"pk":{"S":"order-1"}}.'));
      return;
    }
    showHistory(key);
  });
}
