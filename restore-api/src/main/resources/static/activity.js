// The change timeline: a table's writes per step as an SVG chart (creates, overwrites, deletes),
// the runs that stand out marked on it, and a click on a step to restore to the last second before it.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const timeline = { data: null };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

async function loadActivity() {
  const [span, step] = $('#activity-range').value.split('|');
  const spans = { PT15M: 15 * 60e3, PT6H: 6 * 3600e3, P7D: 7 * 86400e3 };
  const to = new Date();
  const from = new Date(to.getTime() - spans[span]);
  $('#activity').replaceChildren(el('p', { class: 'note' }, 'Counting…'));
  try {
    timeline.data = await api(`/tables/${encodeURIComponent(state.table)}/activity?step=${step}` +
      `&from=${from.toISOString()}&to=${to.toISOString()}`);
    renderActivity();
  } catch (e) {
    $('#activity').replaceChildren(el('p', { role: 'alert' }, e.message));
  }
}

function renderActivity() {
  const a = timeline.data;
  const width = 900;
  const height = 160;
  const bar = width / Math.max(1, a.steps.length);
  const max = Math.max(1, ...a.steps.map((s) => s.creates + s.overwrites + s.deletes));
  const chart = svg('svg', { id: 'activity-chart', viewBox: `0 0 ${width} ${height + 14}`, role: 'img',
    'aria-label': `Writes per ${a.step.toLowerCase()}` });
  const index = new Map(a.steps.map((s, i) => [s.start, i]));
  for (const f of a.flags) {
    const i = index.get(f.start) ?? 0;
    const last = a.steps.findIndex((s) => Date.parse(s.start) >= Date.parse(f.end));
    const n = (last < 0 ? a.steps.length : last) - i;
    chart.append(svg('rect', { class: 'flag', x: i * bar, y: 0, width: Math.max(bar * n, 3), height },
      svg('title', {}, f.reasons.join('; '))));
    chart.append(svg('text', { class: 'flag-mark', x: i * bar, y: height + 12 }, '▲'));
  }
  a.steps.forEach((s, i) => {
    let y = height;
    for (const [kind, count] of [['creates', s.creates], ['overwrites', s.overwrites], ['deletes', s.deletes]]) {
      if (!count) continue;
      const h = (count / max) * (height - 4);
      y -= h;
      chart.append(svg('rect', { class: `bar ${kind}`, x: i * bar, y, width: Math.max(bar - 0.5, 0.5), height: h }));
    }
    // the whole column is the target: a click restores to the last second before the step
    chart.append(svg('rect', { class: 'step-hit', x: i * bar, y: 0, width: bar, height, 'data-start': s.start },
      svg('title', {}, `${s.start}: ${s.creates} created, ${s.overwrites} overwritten, ${s.deletes} deleted, ` +
        `${s.writeUnits} write units`)));
  });
  chart.addEventListener('click', (e) => {
    const start = e.target.getAttribute && e.target.getAttribute('data-start');
    if (start) chooseSecond(secondBefore(start));
  });
  const totals = a.steps.reduce((t, s) => [t[0] + s.creates, t[1] + s.overwrites, t[2] + s.deletes], [0, 0, 0]);
  const nodes = [
    el('p', { class: 'note' }, `${totals[0]} created, ${totals[1]} overwritten, ${totals[2]} deleted from ` +
      `${a.from} to ${a.to}` + (a.complete ? '' : ` (counted up to ${a.countedUntil}: the time limit)`) +
      (a.approximate ? ' (approximate: a native export holds only the last write of each key)' : '') +
      '. Click a step to restore to the second before it.'),
    chart,
    el('div', { class: 'legend' }, el('i', { class: 'creates' }), 'created ', el('i', { class: 'overwrites' }),
      'overwritten ', el('i', { class: 'deletes' }), 'deleted ', el('i', { class: 'flag' }), 'stands out'),
  ];
  const flags = a.flags.map((f) => el('li', { class: 'activity-flag' },
    el('strong', {}, `${f.start.replace('T', ' ').slice(0, 19)} to ${f.end.replace('T', ' ').slice(0, 19)}`), ': ',
    f.reasons.join('; '), '. ',
    f.restorable
      ? el('span', {}, `Restore point: ${f.suggestedSecond} `,
        el('button', { type: 'button', class: 'use-second', onclick: () => chooseSecond(f.suggestedSecond) },
          'Restore to this second'), ' ',
        el('button', { type: 'button', class: 'dry-run-second', onclick: () => dryRunInPlace(f.suggestedSecond) },
          'What would it change (dry run in place)'))
      : el('span', { class: 'note' }, `${f.suggestedSecond}, the second before it, is not restorable.`)));
  nodes.push(flags.length ? el('ul', { id: 'activity-flags' }, ...flags)
    : el('p', { class: 'note', id: 'activity-flags' }, 'Nothing stands out from the table\'s recent pattern.'));
  $('#activity').replaceChildren(...nodes);
}

function secondBefore(iso) {
  return new Date(Date.parse(iso) - 1000).toISOString().slice(0, 19) + 'Z';
}

async function chooseSecond(t) {
  $('#source-kind').value = 'pointInTime';
  showSource();
  await pickSecond(t);
  if ($('#point-in-time').value !== t) {
    showError(new Error(`${t} is not restorable: the nearest restorable seconds are offered on the calendar.`));
    return;
  }
  $('#restore-form').scrollIntoView();
}

async function dryRunInPlace(t) {
  try {
    const summary = await api('/restores', { method: 'POST', body: JSON.stringify({
      source: { table: state.table, pointInTime: t }, destination: { type: 'IN_PLACE' }, dryRun: true }) });
    upsertTask(summary);
    $('#activity-answer').textContent = `Dry run ${summary.restoreId} of ${state.table} in place to ${t} is ` +
      `${summary.state}; its diff shows in Restores when it completes.`;
    $('#activity-answer').hidden = false;
  } catch (e) {
    showError(e);
  }
}

function wireActivity() {
  $('#activity-range').addEventListener('change', () => loadActivity());
}
