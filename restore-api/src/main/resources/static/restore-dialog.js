// The restore dialog as the spec draws it: a second picked among the restorable ones only (a day,
// then its hour, minute and second), partition-key, sort-key and attribute filters added with "+",
// quick links to the latest backup, Snap and restorable second, and every option of a new table.
// app.js calls these; they only read the page and the public REST API.
'use strict';

const KEY_CONDITIONS = ['EqualTo', 'BeginsWith', 'Between', 'GreaterThan', 'GreaterThanOrEqualTo', 'LessThan',
  'LessThanOrEqualTo'];
const ATTRIBUTE_CONDITIONS = ['EqualTo', 'NotEqualTo', 'BeginsWith', 'Contains', 'NotContains', 'Between',
  'GreaterThan', 'LessThan', 'Exists', 'NotExists'];
const HOUR = 3600e3;
const MINUTE = 60e3;

// the restorable windows of the picked day, as [start, end] milliseconds, both ends restorable
const picker = { day: null, windows: [] };

const pad = (n) => String(n).padStart(2, '0');

function restorableIn(lo, hi) {
  return picker.windows.some((w) => w.start <= hi && w.end >= lo);
}

function offer(select, values) {
  const before = select.value;
  select.replaceChildren(...values.map((v) => el('option', { value: v }, pad(v))));
  select.disabled = values.length === 0;
  if (values.map(String).includes(before)) select.value = before;
}

// a day of the calendar: its restorable seconds, as the API clips the windows to it
async function pickDay(day) {
  picker.day = day;
  $('#pit-day').value = day;
  document.querySelectorAll('.day').forEach((d) => d.classList.toggle('selected', d.dataset.date === day));
  const w = await api(`/tables/${encodeURIComponent(state.table)}/pitr-windows` +
    `?from=${day}T00:00:00Z&to=${day}T23:59:59Z`);
  picker.windows = w.windows.map((x) => ({ start: Date.parse(x.start), end: Date.parse(x.end) }));
  fillHours();
}

function dayStart() {
  return Date.parse(`${picker.day}T00:00:00Z`);
}

function fillHours() {
  const hours = [...Array(24).keys()].filter((h) => restorableIn(dayStart() + h * HOUR, dayStart() + (h + 1) * HOUR - 1e3));
  offer($('#pit-hour'), hours);
  $('#pit-none').hidden = hours.length > 0;
  $('#pit-none').textContent = hours.length ? '' : `No second of ${picker.day} is restorable.`;
  fillMinutes();
}

function fillMinutes() {
  const hour = dayStart() + Number($('#pit-hour').value) * HOUR;
  const minutes = $('#pit-hour').disabled ? []
    : [...Array(60).keys()].filter((m) => restorableIn(hour + m * MINUTE, hour + (m + 1) * MINUTE - 1e3));
  offer($('#pit-minute'), minutes);
  fillSeconds();
}

function fillSeconds() {
  const minute = dayStart() + Number($('#pit-hour').value) * HOUR + Number($('#pit-minute').value) * MINUTE;
  const seconds = $('#pit-minute').disabled ? []
    : [...Array(60).keys()].filter((s) => restorableIn(minute + s * 1e3, minute + s * 1e3));
  offer($('#pit-second'), seconds);
  secondPicked();
}

function secondPicked() {
  $('#point-in-time').value = $('#pit-second').disabled ? ''
    : `${picker.day}T${pad($('#pit-hour').value)}:${pad($('#pit-minute').value)}:${pad($('#pit-second').value)}Z`;
}

// sets the selectors to second t (ISO-8601), which the API said is restorable
async function pickSecond(t) {
  await pickDay(t.slice(0, 10));
  const [h, m, s] = t.slice(11, 19).split(':').map(Number);
  $('#pit-hour').value = h; fillMinutes();
  $('#pit-minute').value = m; fillSeconds();
  $('#pit-second').value = s; secondPicked();
}

// ---- quick links: the latest backup, Snap and restorable second, each opening its details ----

function showQuickLinks(w) {
  const links = [];
  if (w.latestBackup) {
    links.push(el('button', { type: 'button', id: 'latest-backup', onclick: () => {
      $('#source-kind').value = 'backup'; showSource(); $('#backup-id').value = w.latestBackup.id;
      $('#quick-detail').textContent = `Backup ${w.latestBackup.id}, taken ${w.latestBackup.takenAt}.`;
    } }, `Latest backup ${w.latestBackup.takenAt.slice(0, 19).replace('T', ' ')}`));
  }
  if (w.latestSnap) {
    links.push(el('button', { type: 'button', id: 'latest-snap', onclick: () => {
      $('#source-kind').value = 'snap'; showSource(); $('#snap-id').value = w.latestSnap.id;
      $('#quick-detail').textContent = `Snap ${w.latestSnap.id} (an AWS backup), taken ${w.latestSnap.takenAt}.`;
    } }, `Latest Snap ${w.latestSnap.takenAt.slice(0, 19).replace('T', ' ')}`));
  }
  if (w.latestRestorable) {
    links.push(el('button', { type: 'button', id: 'latest-second', onclick: async () => {
      $('#source-kind').value = 'pointInTime'; showSource();
      await pickSecond(w.latestRestorable);
      $('#quick-detail').textContent = `${w.latestRestorable} is the latest restorable second, in the last of ` +
        `${w.windows.length} window(s) of restorable seconds.`;
    } }, `Latest restorable second ${w.latestRestorable.slice(0, 19).replace('T', ' ')}`));
  }
  $('#quick-links').replaceChildren(...links);
  $('#quick-detail').textContent = '';
}

// ---- filters: partition keys (each with an optional sort key) and attributes, added with "+" ----

function conditionSelect(cls, conditions, none) {
  return el('select', { class: cls }, ...(none ? [el('option', { value: '' }, none)] : []),
    ...conditions.map((c) => el('option', { value: c }, c)));
}

function removable(row) {
  row.append(el('button', { type: 'button', class: 'remove', 'aria-label': 'Remove this filter',
    onclick: () => row.remove() }, '×'));
  return row;
}

function addKeyFilter() {
  $('#key-filters').append(removable(el('div', { class: 'key-filter' },
    el('label', {}, 'Partition key ', conditionSelect('pk-condition', KEY_CONDITIONS)),
    el('input', { class: 'pk-value', placeholder: 'value (two, comma-separated, for Between)' }),
    el('label', {}, ' and sort key ', conditionSelect('sk-condition', KEY_CONDITIONS, 'any')),
    el('input', { class: 'sk-value', placeholder: 'value' }))));
}

function addAttributeFilter() {
  $('#attr-filters').append(removable(el('div', { class: 'attr-filter' },
    el('label', {}, 'Attribute ', el('input', { class: 'attr-name', placeholder: 'name' })),
    el('select', { class: 'attr-type' }, ...['S', 'N', 'B', 'BOOL'].map((t) => el('option', {}, t))),
    conditionSelect('attr-condition', ATTRIBUTE_CONDITIONS),
    el('input', { class: 'attr-value', placeholder: 'value (two, comma-separated, for Between)' }))));
}

function operands(condition, text) {
  if (condition.endsWith('Exists')) return [];
  return condition === 'Between' ? text.split(',').map((v) => v.trim()) : [text.trim()];
}

function recordsScope() {
  const keyFilters = [...document.querySelectorAll('.key-filter')].map((row) => {
    const pk = row.querySelector('.pk-condition').value;
    const filter = { partitionKey: { condition: pk, values: operands(pk, row.querySelector('.pk-value').value) } };
    const sk = row.querySelector('.sk-condition').value;
    if (sk) filter.sortKey = { condition: sk, values: operands(sk, row.querySelector('.sk-value').value) };
    return filter;
  });
  const attributeFilters = [...document.querySelectorAll('.attr-filter')]
    .filter((row) => row.querySelector('.attr-name').value.trim())
    .map((row) => {
      const condition = row.querySelector('.attr-condition').value;
      const filter = { name: row.querySelector('.attr-name').value.trim(), type: row.querySelector('.attr-type').value,
        condition };
      if (!condition.endsWith('Exists')) filter.values = operands(condition, row.querySelector('.attr-value').value);
      return filter;
    });
  const result = { type: 'RECORDS', keyFilters };
  if (attributeFilters.length) result.attributeFilters = attributeFilters;
  return result;
}

// ---- a new table's options, each left as at backup time unless set ----

function tableOptions() {
  // a checked box leaves the flag out: the table then gets the indexes its backup has, if any
  const options = {};
  if (!$('#include-gsi').checked) options.includeGlobalSecondaryIndexes = false;
  if (!$('#include-lsi').checked) options.includeLocalSecondaryIndexes = false;
  if ($('#billing').value) options.billing = { mode: $('#billing').value };
  if ($('#pitr-option').value) options.pointInTimeRecovery = $('#pitr-option').value === 'true';
  const tags = $('#tags').value.split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.length) options.tags = Object.fromEntries(tags.map((t) => [t.split('=')[0].trim(), t.split('=').slice(1).join('=').trim()]));
  if ($('#encryption').value) {
    options.encryption = { type: $('#encryption').value };
    if ($('#encryption').value === 'CUSTOMER_MANAGED') options.encryption.kmsKeyArn = $('#kms-key').value.trim();
  }
  if ($('#streams').value) options.streams = $('#streams').value;
  if ($('#ttl').value === 'off') options.timeToLive = { enabled: false };
  if ($('#ttl').value === 'on') options.timeToLive = { enabled: true, attributeName: $('#ttl-attribute').value.trim() };
  if ($('#table-class').value) options.tableClass = $('#table-class').value;
  if ($('#deletion-protection').value) options.deletionProtection = $('#deletion-protection').value === 'true';
  return options;
}

function showOptionInputs() {
  $('#kms-key').hidden = $('#encryption').value !== 'CUSTOMER_MANAGED';
  $('#ttl-attribute').hidden = $('#ttl').value !== 'on';
}

function wireDialog() {
  $('#pit-day').addEventListener('change', () => $('#pit-day').value && pickDay($('#pit-day').value).catch(showError));
  $('#pit-hour').addEventListener('change', fillMinutes);
  $('#pit-minute').addEventListener('change', fillSeconds);
  $('#pit-second').addEventListener('change', secondPicked);
  $('#add-key-filter').addEventListener('click', addKeyFilter);
  $('#add-attr-filter').addEventListener('click', addAttributeFilter);
  $('#encryption').addEventListener('change', showOptionInputs);
  $('#ttl').addEventListener('change', showOptionInputs);
  addKeyFilter();
  showOptionInputs();
}
